import { createHash, randomUUID } from 'node:crypto';
import { and, eq, lte, sql } from 'drizzle-orm';
import type { AppContext } from '../context';
import type { Database, Db } from '../db/client';
import { idempotencyKeys } from '../db/schema';
import { canonicalJson } from '../lib/canonical-json';
import { actorOfSession } from './audit';
import { databaseDataError, errorBody } from './error-handler';
import { AppError, type AppErrorCode } from './errors';
import type { SessionContext } from './session';

/** A key is forgotten this long after its first request (Stripe: 24 h); a request with it then runs anew. */
export const IDEMPOTENCY_KEY_TTL_MS = 24 * 3_600_000;
/**
 * How long a claimed key stays locked while its request runs. Longer than any money request takes (a gateway
 * call gives up after 10 s); after a crash the key is free again once this has passed.
 */
export const IDEMPOTENCY_LOCK_MS = 60_000;

/** What the helper needs of a service context: the database and the clock of the app, and the caller. */
export interface IdempotencyCtx {
  app: Pick<AppContext, 'database' | 'clock'>;
  /** Null on a public page: the call then names its caller (`IdempotentCall.caller`, e.g. the link). */
  session: SessionContext | null;
}

export interface IdempotentCall {
  /** The route: method and path pattern without the token, e.g. 'POST /customers/:id/transactions/:txId'. */
  route: string;
  /** The Idempotency-Key header, if sent (without one the work just runs). */
  key: string | undefined;
  /** What must be the same for a replay: the path ids and the parsed body. */
  request: { params: Record<string, unknown>; body: unknown };
  /** The HTTP status of a success (what the route answers; recorded with the answer). Default 200. */
  status?: number;
  /** Whose key it is when there is no session (a public page: the link, e.g. 'link:12'). */
  caller?: string;
}

/**
 * The work of a request in two steps (convention 13): `outside` runs first in no transaction — reads and the
 * gateway call — so a slow outside call holds no lock (and on PGlite, whose one connection serializes
 * transactions, does not stop the other requests); then `effect` runs in one transaction that also stores
 * the answer.
 */
export interface IdempotentWork<P, T> {
  outside: (run: IdempotentRun) => Promise<P>;
  effect: (tx: Db, now: Date, prepared: P) => Promise<T>;
}

export interface IdempotentRun {
  now: Date;
  /**
   * Names this request for an outside call's own idempotency key (the gateway's): the same for a retry of it
   * after a 5xx or a crash — so the gateway answers what it did the first time — and different for another
   * caller's key or a key used again after its 24 h. Random without an Idempotency-Key.
   */
  requestRef: string;
}

type Effect<T> = (tx: Db, now: Date) => Promise<T>;

export function requestHash(request: unknown): string {
  return createHash('sha256').update(canonicalJson(request)).digest('hex');
}

/** Whose key it is: the signed-in person (staff user, distributor login, integration key). */
function callerOf(session: SessionContext): string {
  const actor = actorOfSession(session);
  return `${actor.actorType}:${actor.actorId ?? `session-${session.id}`}`;
}

interface Claimed {
  kind: 'claimed';
  scope: string;
  key: string;
  /** When the key's first request came (kept when a retry takes a crashed request's key over). */
  createdAt: Date;
  lockedUntil: Date;
}

interface Answered {
  kind: 'answered';
  status: number;
  body: unknown;
}

/** The stored answer again: the success's `info`, or the refusal thrown as the same error (same status and body). */
function replay<T>(answer: Answered): T {
  if (answer.status < 400) return (answer.body as { info: T }).info;
  const { code, message, fields, ...details } = (answer.body as { error: Record<string, unknown> }).error;
  throw new AppError(
    code as AppErrorCode,
    message as string,
    fields as Record<string, string> | undefined,
    Object.keys(details).length > 0 ? details : undefined,
  );
}

/**
 * Run a money POST once per Idempotency-Key, with Stripe's semantics (decision 104):
 * - the key is claimed first, in its own statement (insert … on conflict), so two requests with one key never
 *   both run: the second one, while the first runs, gets 409 `idempotency_key_in_flight`;
 * - the answer is stored in the same transaction as the effect (an effect never commits without its answer);
 *   a repeat with the same request gets that answer — the same status and body — and nothing runs again;
 * - the same key with another request (body or path ids) → 422 `idempotency_key_reused`;
 * - a refusal (4xx) is an answer too and is stored, except a 400 (the request was not valid, nothing ran: a
 *   corrected request may use the same key); a 5xx or a crash leaves no answer and unlocks the key (a crash: when
 *   its lock runs out), so a retry of the same request runs — another request with the key is still refused;
 * - a key is kept 24 h from its first request; after that a request with it runs anew.
 * The scope of a key is the caller and the route: another user's key never answers this user's request.
 */
export async function runIdempotent<T, P = void>(
  ctx: IdempotencyCtx,
  call: IdempotentCall,
  work: Effect<T> | IdempotentWork<P, T>,
): Promise<T> {
  const { database, clock } = ctx.app;
  const now = clock.now();
  const steps: IdempotentWork<P, T> =
    typeof work === 'function' ? { outside: async () => undefined as P, effect: (tx, at) => work(tx, at) } : work;
  if (call.key === undefined) {
    const prepared = await steps.outside({ now, requestRef: randomUUID() });
    return database.db.transaction((tx) => steps.effect(tx, now, prepared));
  }

  const caller = call.caller ?? (ctx.session ? callerOf(ctx.session) : null);
  if (caller === null) throw new Error('runIdempotent: a call without a session names its caller');
  const scope = `${caller} ${call.route}`;
  const claimed = await claim(database, { scope, key: call.key, hash: requestHash(call.request), now });
  if (claimed.kind === 'answered') return replay<T>(claimed);
  try {
    const requestRef = createHash('sha256')
      .update(`${scope}\n${call.key}\n${claimed.createdAt.toISOString()}`)
      .digest('hex')
      .slice(0, 32);
    const prepared = await steps.outside({ now, requestRef });
    return await database.db.transaction(async (tx) => {
      const answer = await steps.effect(tx, now, prepared);
      await finish(tx, claimed, call.status ?? 200, { info: answer });
      return answer;
    });
  } catch (thrown) {
    // A value PostgreSQL refused is the request's fault (a 400, answered by the error handler): the key is forgotten.
    const err = databaseDataError(thrown) ?? thrown;
    if (err instanceof AppError && err.status === 400) await forget(database, claimed);
    else if (err instanceof AppError && err.status < 500)
      await finish(database.db, claimed, err.status, errorBody(err.code, err.message, err.fields, err.details));
    else await unlock(database, claimed, now);
    throw thrown;
  }
}

/**
 * Claim the key, or find its answer. A new key is inserted locked; an expired one (past 24 h), or one whose lock
 * ran out without an answer (its request crashed) for the same request, is taken over. Otherwise the row that
 * is there decides: another request → 422; no answer yet → 409; an answer → that answer.
 */
async function claim(
  database: Database,
  input: { scope: string; key: string; hash: string; now: Date },
): Promise<Claimed | Answered> {
  const { scope, key, hash, now } = input;
  const lockedUntil = new Date(now.getTime() + IDEMPOTENCY_LOCK_MS);
  const at = sql`${now.toISOString()}::timestamptz`;
  const expired = sql`${idempotencyKeys.expiresAt} <= ${at}`;
  // The same request again after its first run crashed or failed (5xx): the lock ran out and there is no answer.
  const abandoned = sql`(${idempotencyKeys.responseStatus} is null and ${idempotencyKeys.lockedUntil} <= ${at} and ${idempotencyKeys.requestHash} = ${hash})`;
  for (let attempt = 0; attempt < 3; attempt++) {
    const taken = await database.db
      .insert(idempotencyKeys)
      .values({
        scope,
        key,
        requestHash: hash,
        createdAt: now,
        expiresAt: new Date(now.getTime() + IDEMPOTENCY_KEY_TTL_MS),
        lockedUntil,
      })
      .onConflictDoUpdate({
        target: [idempotencyKeys.scope, idempotencyKeys.key],
        // An expired key starts again; an abandoned one keeps its first request's times (and so its requestRef).
        set: {
          requestHash: sql`excluded.request_hash`,
          responseStatus: null,
          responseBody: null,
          createdAt: sql`case when ${expired} then excluded.created_at else ${idempotencyKeys.createdAt} end`,
          expiresAt: sql`case when ${expired} then excluded.expires_at else ${idempotencyKeys.expiresAt} end`,
          lockedUntil: sql`excluded.locked_until`,
        },
        setWhere: sql`${expired} or ${abandoned}`,
      })
      .returning({ createdAt: idempotencyKeys.createdAt });
    if (taken[0]) return { kind: 'claimed', scope, key, createdAt: taken[0].createdAt, lockedUntil };

    const [row] = await database.db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
    // The first request was refused with a 400 meanwhile and forgot the key: try again.
    if (!row) continue;
    if (row.requestHash !== hash) {
      throw new AppError(
        'idempotency_key_reused',
        'This Idempotency-Key was already used for a different request. Use a new key for a new request.',
      );
    }
    if (row.responseStatus === null) {
      throw new AppError(
        'idempotency_key_in_flight',
        'A request with this Idempotency-Key is still being processed. Wait a moment and send it again.',
      );
    }
    return { kind: 'answered', status: row.responseStatus, body: row.responseBody };
  }
  throw new AppError(
    'idempotency_key_in_flight',
    'A request with this Idempotency-Key is being retried at the same moment. Wait a moment and send it again.',
  );
}

/** Store the answer; the claim must still be ours (a request that outlived its lock and was taken over rolls back). */
async function finish(tx: Db, claimed: Claimed, status: number, body: unknown): Promise<void> {
  const stored = await tx
    .update(idempotencyKeys)
    .set({ responseStatus: status, responseBody: body, lockedUntil: null })
    .where(ours(claimed))
    .returning({ key: idempotencyKeys.key });
  if (stored.length === 0) {
    throw new Error(`idempotency key ${claimed.key} was taken over while its request ran (longer than the lock)`);
  }
}

/** A 400: the request was refused before anything happened; the key is free for a corrected request. */
async function forget(database: Database, claimed: Claimed): Promise<void> {
  await database.db.delete(idempotencyKeys).where(ours(claimed));
}

/** A 5xx: no answer, but the lock goes, so a retry of the same request runs (and takes the key over). */
async function unlock(database: Database, claimed: Claimed, now: Date): Promise<void> {
  await database.db.update(idempotencyKeys).set({ lockedUntil: now }).where(ours(claimed));
}

const ours = (claimed: Claimed) =>
  and(
    eq(idempotencyKeys.scope, claimed.scope),
    eq(idempotencyKeys.key, claimed.key),
    eq(idempotencyKeys.lockedUntil, claimed.lockedUntil),
  );

/** Delete the keys past their 24 h (the janitor job), in batches; returns how many went. */
export async function deleteExpiredIdempotencyKeys(database: Database, now: Date, batch = 5_000): Promise<number> {
  let deleted = 0;
  for (;;) {
    const gone = await database.db
      .delete(idempotencyKeys)
      .where(
        sql`(${idempotencyKeys.scope}, ${idempotencyKeys.key}) in (select scope, key from ${idempotencyKeys} where ${lte(idempotencyKeys.expiresAt, now)} limit ${batch})`,
      )
      .returning({ key: idempotencyKeys.key });
    deleted += gone.length;
    if (gone.length < batch) return deleted;
  }
}
