export { ledgerRoutes } from './ledger.routes';
export {
  balancesOf,
  invoiceBalanceFields,
  invoiceBalances,
  ledgerMismatchesSql,
  syncInvoice,
  overdueWhere,
  toInvoiceBalance,
  type InvoiceBalanceRow,
} from './ledger.service';
