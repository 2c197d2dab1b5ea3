export { customerAccountRoutes } from './customer-accounts.routes';
export { ACCOUNT_GUARDS } from './customer-accounts.routes';
export { creditInvoicesOf, toCreditMemo, toInvoice } from './invoices.service';
/** Returns (decision 122) retire their terminals through the same call as the customer page. */
export { retireTerminal } from './terminals.service';
export { selectTransactions, toTransaction } from './transactions.service';
export {
  insertInstrument,
  redeemInstrument,
  syncGatewayCustomer,
  toInstrument,
  type RedeemedInstrument,
} from './payment-instruments.service';
export { changeFeaturesIn, diffFeatures, featurePlanOf, featureState } from './features.service';
export { updatePlanIn } from './plans.service';
