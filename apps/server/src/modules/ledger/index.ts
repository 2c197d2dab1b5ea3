export { ledgerRoutes } from './ledger.routes';
export {
  balancesOf,
  invoiceBalanceFields,
  invoiceBalances,
  ledgerMismatchesSql,
  toInvoiceBalance,
  type InvoiceBalanceRow,
} from './ledger.service';
