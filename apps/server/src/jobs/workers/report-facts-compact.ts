import type { AppContext } from '../../context';
import { compactReportFacts } from '../../modules/reports';
import { SCHEDULED_QUEUE } from '../definitions';

/** Folds the report facts' appended rows into one per key (decision 137): every 15 minutes. */
export const reportFactsCompactWorker = {
  queue: SCHEDULED_QUEUE.reportFactsCompact,
  async run(ctx: Pick<AppContext, 'database'>): Promise<{ folded: number }> {
    return { folded: await compactReportFacts(ctx.database.db) };
  },
};
