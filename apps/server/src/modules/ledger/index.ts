export { ledgerRoutes } from './ledger.routes';
export {
  balancesOf,
  invoiceBalanceFields,
  invoiceBalances,
  ledgerMismatchesSql,
  overdueWhere,
  toInvoiceBalance,
  type InvoiceBalanceRow,
} from './ledger.service';
