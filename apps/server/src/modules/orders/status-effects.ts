import type { OrderStatusCode } from '@pos/domain';
import type { Db } from '../../db/client';
import type { orders } from '../../db/schema';
import type { AuditActor } from '../../http/audit';
import type { JobContext } from '../../jobs/context';
import { contractStatusEffects } from '../contracts/contract-effects';
import { onboardingStatusEffects } from '../onboarding/onboarding-effects';

/** What the effects of a status change may use: the server's context without HTTP (the app's ctx satisfies it). */
export type EffectContext = Pick<JobContext, 'config' | 'database' | 'clock' | 'mail' | 'storage'>;

export interface StatusChange {
  /** The order as it is after the move (status = to, version bumped). */
  order: typeof orders.$inferSelect;
  from: OrderStatusCode | null;
  to: OrderStatusCode;
  now: Date;
  /** Who made the move, for the effects' audit entries. */
  actor: AuditActor;
  requestId: string | null;
}

/**
 * What follows an order's status change, inside the same transaction (so it happens exactly when the move does):
 * the contract (made and sent on Pending Contract Sign, remade on AR Contract Regenerated) and onboarding on
 * Complete. Every place that moves an order calls this: the submit, PUT ordernotes, the order-status worker and
 * the merchant's signature.
 */
export async function applyStatusEffects(ctx: EffectContext, db: Db, change: StatusChange): Promise<void> {
  await contractStatusEffects(ctx, db, change);
  await onboardingStatusEffects(ctx, db, change);
}
