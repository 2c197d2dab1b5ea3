import { cancellationFeeEffects } from './modules/billing';
import { contractStatusEffects, regenerateAfterSave } from './modules/contracts';
import { memoRefundAnswered } from './modules/memos';
import { onboardingStatusEffects } from './modules/onboarding';
import { onOrderDocumentSave, onOrderSaved, onOrderStatusChange } from './modules/orders';
import { syncOrderHold } from './modules/payment-authorizations';
import { holdAnswered, onMovementAnswered, queueHoldSettlements } from './modules/payments';
import { promotionStatusEffects } from './modules/promotions';
import { returnRefundAnswered } from './modules/returns';

/**
 * What modules do when another module's event happens: orders declares its hooks and imports none of the listeners.
 * Every process that changes orders calls this before it serves or works (buildApp, worker.ts); calling it again
 * changes nothing.
 */
export function registerListeners(): void {
  // Contracts (decision 082): a version made and sent on Pending Contract Sign, remade on AR Contract Regenerated
  // and when the document of an order waiting for its signature changes.
  onOrderStatusChange('contracts', contractStatusEffects);
  onOrderDocumentSave('contracts', regenerateAfterSave);
  // Onboarding (decision 083): a Complete order becomes the merchant's records, exactly once.
  onOrderStatusChange('onboarding', onboardingStatusEffects);
  // Payments (decision 116): a Complete order's card hold is captured, a rejected or canceled order's released (by
  // the payments sweep, outside the transaction).
  onOrderStatusChange('payments', queueHoldSettlements);
  // Fees (decision 158): an existing customer's POS order canceled after its hardware shipped is billed the
  // cancellation fee (billing item 91), once.
  onOrderStatusChange('cancellation-fee', cancellationFeeEffects);
  // The order flow's card hold (decision 151): after a save commits, the upfront total with tax is held on the
  // hardware card, and held again when the total or the card changes.
  onOrderSaved('hold', (ctx, orderId) => syncOrderHold(ctx, orderId));
  // The money path (decision 144): what an answered refund, void, capture or release completes, whether the asker
  // got the answer or the payments sweep reconciled it later.
  onMovementAnswered('hold', holdAnswered);
  onMovementAnswered('memo', memoRefundAnswered);
  onMovementAnswered('return', returnRefundAnswered);
  // Promotions (decision 125): a submitted order's promotions checked (validity, customer type, usage limit) and
  // recorded in order_promotions; on Complete they get the merchant's customer. Registered after onboarding.
  onOrderStatusChange('promotions', promotionStatusEffects);
}
