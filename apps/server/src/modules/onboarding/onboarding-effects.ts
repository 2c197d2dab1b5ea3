import type { Db } from '../../db/client';
import type { EffectContext, StatusChange } from '../orders/status-effects';

/** Onboarding on Complete (issue 7; filled in by the onboarding module). */
export async function onboardingStatusEffects(_ctx: EffectContext, _db: Db, _change: StatusChange): Promise<void> {}
