import { asc, desc, type AnyColumn, type SQL } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { writeAudit, type AuditEntry } from '../../http/audit';

/** Today (UTC) as YYYY-MM-DD by the app clock. */
export function todayOf(ctx: Pick<ServiceCtx, 'app'>): string {
  return ctx.app.clock.now().toISOString().slice(0, 10);
}

export const isoOrNull = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/**
 * An audit entry of this module: the context's actor, the request id, and `customer_id` as a top-level key
 * of `after` and `before` (the rule every part follows, so the customer's audit trail finds it).
 */
export async function audit(
  tx: Db,
  ctx: Pick<ServiceCtx, 'actor' | 'requestId'>,
  now: Date,
  entry: {
    customerId: number;
    action: string;
    entity: string;
    entityId: string | number;
    before?: Record<string, unknown> | null;
    after: Record<string, unknown>;
  },
): Promise<void> {
  const withCustomer = (v: Record<string, unknown>) => ({ customer_id: entry.customerId, ...v });
  const row: AuditEntry = {
    ...ctx.actor,
    at: now,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId,
    after: withCustomer(entry.after),
    requestId: ctx.requestId,
    customerId: entry.customerId,
  };
  if (entry.before) row.before = withCustomer(entry.before);
  await writeAudit(tx, row);
}

/**
 * ORDER BY for a whitelisted `sort` ('field' or '-field'), then the tie-breaker: ascending, or with
 * `tieFollowsSort` in the sort's direction — so that an index on (…, field, id) read backwards serves a
 * descending sort and the page stops after its rows (the long lists: invoices, transactions; decision 109).
 */
export function orderBy(
  sort: string | undefined,
  columns: Record<string, AnyColumn | SQL>,
  fallback: string,
  tieBreaker: AnyColumn,
  { tieFollowsSort = false }: { tieFollowsSort?: boolean } = {},
): SQL[] {
  const spec = sort ?? fallback;
  const descending = spec.startsWith('-');
  const column = columns[descending ? spec.slice(1) : spec] ?? columns[fallback.replace(/^-/, '')]!;
  return [descending ? desc(column) : asc(column), descending && tieFollowsSort ? desc(tieBreaker) : asc(tieBreaker)];
}
