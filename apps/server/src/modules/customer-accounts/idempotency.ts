import { createHash } from 'node:crypto';
import { and, eq, sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import { auditLog } from '../../db/schema';
import { actorOfSession, writeAudit } from '../../http/audit';
import { AppError } from '../../http/errors';
import type { AccountCtx } from './account-context';

/** The audit entity of a stored answer; entity id = `<scope>|<key>` (decision 058). */
export const IDEMPOTENCY_ENTITY = 'idempotency_key';
const IDEMPOTENCY_ACTION = 'answer_recorded';

/** JSON with sorted object keys, so two equal bodies hash equally whatever their key order. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(',')}]`;
  if (value && typeof value === 'object') {
    const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
    return `{${entries
      .sort(([a], [b]) => (a < b ? -1 : 1))
      .map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`)
      .join(',')}}`;
  }
  return JSON.stringify(value ?? null);
}

export function requestHash(request: unknown): string {
  return createHash('sha256').update(canonical(request)).digest('hex');
}

export interface IdempotentCall {
  /** What the key is scoped to: the method and the path without the token, e.g. 'POST /customers/100001/customerpaymentplans'. */
  scope: string;
  /** The Idempotency-Key header, if sent. */
  key: string | undefined;
  /** What must be the same for a replay (the path ids and the parsed body). */
  request: unknown;
}

/**
 * Run a money write once per Idempotency-Key, in one transaction. With a key: an advisory lock on the key makes
 * concurrent repeats wait; a key already answered with the same request answers the recorded answer (no second
 * effect); with another request → 409 conflict. The answer is recorded in the audit log (append-only) in the same
 * transaction as the effect, so it exists exactly when the effect committed. Without a key the effect just runs.
 */
export async function runIdempotent<T>(
  ctx: AccountCtx,
  call: IdempotentCall,
  effect: (tx: Db, now: Date) => Promise<T>,
): Promise<T> {
  const { database } = ctx.app;
  return database.db.transaction(async (tx) => {
    const now = ctx.app.clock.now();
    if (call.key === undefined) return effect(tx, now);
    const entityId = `${call.scope}|${call.key}`;
    const hash = requestHash(call.request);
    await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`idem:${entityId}`}, 0))`);
    const [seen] = await tx
      .select({ after: auditLog.after })
      .from(auditLog)
      .where(
        and(
          eq(auditLog.entity, IDEMPOTENCY_ENTITY),
          eq(auditLog.entityId, entityId),
          eq(auditLog.action, IDEMPOTENCY_ACTION),
        ),
      )
      .limit(1);
    if (seen) {
      const recorded = seen.after as { request_hash: string; answer: T };
      if (recorded.request_hash !== hash) {
        throw new AppError(
          'conflict',
          'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
        );
      }
      return recorded.answer;
    }
    const answer = await effect(tx, now);
    // Not a change to the customer's records (the effect wrote its own entries): no customer_id, so the
    // customer's activity list does not show bookkeeping.
    await writeAudit(tx, {
      ...actorOfSession(ctx.session),
      at: now,
      action: IDEMPOTENCY_ACTION,
      entity: IDEMPOTENCY_ENTITY,
      entityId,
      after: { scope: call.scope, request_hash: hash, answer },
      requestId: ctx.requestId,
    });
    return answer;
  });
}
