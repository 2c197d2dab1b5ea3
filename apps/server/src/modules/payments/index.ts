export {
  chargeInvoice,
  chargeKey,
  invoicesSettled,
  paymentReferenceOf,
  reconcileOne,
  recordOutcome,
  type ChargeOutcome,
  type ChargeRequest,
  type ChargeSource,
} from './charge.service';
export { enqueueCharge, sweepPayments, type SweepResult } from './sweep.service';
export { actOnTransactions, type TransactionActionOutcome } from './actions.service';
export { replayDeferredRequests } from './replay.service';
export { queueHoldSettlements, settleHolds } from './holds.service';
