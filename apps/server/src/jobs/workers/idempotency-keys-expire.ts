import { deleteExpiredIdempotencyKeys } from '../../http/idempotency';
import type { AppContext } from '../../context';
import { SCHEDULED_QUEUE } from '../definitions';

/** The janitor of the Idempotency-Keys (decision 104): hourly, deletes every key past its 24 h. */
export const idempotencyKeysExpireWorker = {
  queue: SCHEDULED_QUEUE.idempotencyKeysExpire,
  async run(ctx: Pick<AppContext, 'database' | 'clock'>): Promise<{ deleted: number }> {
    return { deleted: await deleteExpiredIdempotencyKeys(ctx.database, ctx.clock.now()) };
  },
};
