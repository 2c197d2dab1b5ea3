export { ledgerRoutes } from './ledger.routes';
export {
  balancesOf,
  invoiceBalanceFields,
  invoiceBalances,
  ledgerLimitBreachesSql,
  ledgerMismatchesSql,
  lockStoreBalances,
  syncInvoice,
  overdueWhere,
  toInvoiceBalance,
  type InvoiceBalanceRow,
} from './ledger.service';
export {
  assertCreditable,
  assertFourEyes,
  assertOnAccount,
  assertRefundable,
  invoiceLimits,
  lockForMoney,
  onAccountLimits,
  type InvoiceLimits,
  type OnAccountLimits,
} from './limits';
export {
  journalMismatches,
  journalMismatchesSql,
  journalOpenCents,
  journalRefundable,
  journalUnappliedCents,
  unbalancedEntries,
  unbalancedEntriesSql,
  type JournalRefundable,
} from './journal.service';
