export {
  chargeInvoice,
  chargeKey,
  chargeableInstrument,
  paymentReferenceOf,
  reconcileOne,
  recordOutcome,
  type ChargeOutcome,
  type ChargeRequest,
  type ChargeSource,
} from './charge.service';
export { enqueueCharge, prepareChargeJobs, sweepPayments, type SweepResult } from './sweep.service';
export { actOnTransactions, type TransactionActionOutcome } from './actions.service';
export { replayDeferredRequests, DEFERRED_ACTION } from './replay.service';
export { pendingHolds, queueHoldSettlements, settleHolds } from './holds.service';
