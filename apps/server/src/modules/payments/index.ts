// The money path (decision 144): the only module that reaches the payment gateway. Charges, refunds, voids, captures
// and authorizations are recorded P, committed, sent outside any transaction, answered, and reconciled when the
// answer was lost; afterPosting is the one place the invoice / dunning / license side effects of a posting happen.
export {
  chargeInvoice,
  chargeKey,
  paymentReferenceOf,
  reconcileOne,
  recordOutcome,
  type ChargeOutcome,
  type ChargeRequest,
  type ChargeSource,
} from './charge.service';
export { afterPosting, invoicesSettled, type SyncedInvoice } from './posting.service';
export {
  authorizeCard,
  onMovementAnswered,
  reconcileMovements,
  recordMovementAnswer,
  refundPayment,
  settleHold,
  voidCharge,
  type MoneyMovement,
  type MovementFollowUp,
  type MovementOutcome,
  type RefundRequest,
} from './money.service';
export { retryFailedCharge } from './retry.service';
export {
  gatewayInfo,
  gatewaySettlementReport,
  redeemCardToken,
  updateGatewayCustomer,
  type SettlementEntry,
} from './gateway-access.service';
export { enqueueCharge, sweepPayments, type SweepResult } from './sweep.service';
export { actOnTransactions, type TransactionActionOutcome } from './actions.service';
export { replayDeferredRequests } from './replay.service';
export {
  AUTHORIZATION_ACTION,
  holdAnswered,
  queueHoldSettlements,
  settleHolds,
  settleOne as settleHoldNow,
  settleOrderHolds,
} from './holds.service';
