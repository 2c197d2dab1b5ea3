/*
 * The account tabs of the customer page (issue 6): Terminals, Plans, Billing items, Bundles, Promotions,
 * Transactions, Invoices. Each takes StoreTabProps and owns its queries (api/accounts-*.ts).
 */
export { TerminalsTab } from './terminals-tab';
export { PlansTab } from './plans-tab';
export { BillingItemsTab } from './billing-items-tab';
export { BundlesTab } from './bundles-tab';
export { PromotionsTab } from './promotions-tab';
export { TransactionsTab } from './transactions-tab';
export { InvoicesTab } from './invoices-tab';
