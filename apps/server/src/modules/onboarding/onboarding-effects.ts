import { ORDER_STATUS } from '@pos/domain';
import type { Db } from '../../db/client';
import type { EffectContext, StatusChange } from '../orders/status-effects';
import { onboardOrder } from './onboarding.service';

/** Onboarding on Complete (decision 083): in the transaction of the move, exactly once. */
export async function onboardingStatusEffects(ctx: EffectContext, db: Db, change: StatusChange): Promise<void> {
  if (change.to !== ORDER_STATUS.COMPLETE) return;
  await onboardOrder(ctx, db, change.order.id, { actor: change.actor, requestId: change.requestId });
}
