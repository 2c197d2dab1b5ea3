export { ledgerRoutes } from './ledger.routes';
export {
  balancesOf,
  invoiceBalanceFields,
  invoiceBalances,
  ledgerMismatchesSql,
  lockStoreBalances,
  syncInvoice,
  overdueWhere,
  toInvoiceBalance,
  type InvoiceBalanceRow,
} from './ledger.service';
