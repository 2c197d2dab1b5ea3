import type { Db } from '../../db/client';
import type { EffectContext, StatusChange } from '../orders/status-effects';

/** Contract work a status change causes (issue 7; filled in by the contracts module). */
export async function contractStatusEffects(_ctx: EffectContext, _db: Db, _change: StatusChange): Promise<void> {}
