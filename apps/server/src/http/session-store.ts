import { privilegesInScope } from '@pos/domain';
import { and, eq, gt, isNull, sql } from 'drizzle-orm';
import type { AppConfig } from '../config';
import type { Db } from '../db/client';
import { agents, distributorAccounts, sessions, staffUsers } from '../db/schema';
import { hashToken, newToken } from '../lib/tokens';

/*
 * The sessions table: a session is made at sign-in (auth module), found by its token on every guarded request
 * (session.ts), touched, and released at sign-out. Only the token's SHA-256 is stored.
 */

export type SessionKind = 'staff' | 'distributor' | 'maketoken';

/** The signed-in session of a request (set by `requireSession`). Privileges were captured at sign-in. */
export interface SessionContext {
  id: number;
  kind: SessionKind;
  role: string;
  privileges: string[];
  email: string;
  name: string;
  accountManagerUsername: string | null;
  staffUserId: number | null;
  distributorAccountId: number | null;
  agentId: number | null;
  createdAt: Date;
  lastSeenAt: Date;
  expiresAt: Date;
}

/** A session's last-seen time (and so its idle expiry) is written at most this often. */
export const SESSION_TOUCH_INTERVAL_MS = 60_000;

type SessionTiming = Pick<AppConfig, 'sessionIdleMinutes' | 'sessionMaxHours'>;

/** Idle expiry from `seen`, never past the absolute expiry counted from `created`. */
export function sessionExpiry(config: SessionTiming, created: Date, seen: Date): Date {
  const idle = seen.getTime() + config.sessionIdleMinutes * 60_000;
  const absolute = created.getTime() + config.sessionMaxHours * 3_600_000;
  return new Date(Math.min(idle, absolute));
}

export interface NewSession {
  kind: SessionKind;
  role: string;
  privileges: readonly string[];
  staffUserId?: number | null;
  distributorAccountId?: number | null;
  agentId?: number | null;
  integrationKeyId?: number | null;
  ipAddress?: string | null;
  userAgent?: string | null;
}

/** Create a session; returns the token (shown once — only its SHA-256 is stored). */
export async function createSession(
  db: Db,
  config: SessionTiming,
  now: Date,
  input: NewSession,
): Promise<{ token: string; id: number; expiresAt: Date }> {
  const token = newToken();
  const expiresAt = sessionExpiry(config, now, now);
  const [row] = await db
    .insert(sessions)
    .values({
      tokenHash: hashToken(token),
      kind: input.kind,
      role: input.role,
      // An agent-scoped session never holds a provider-wide privilege, whatever its role grants (decision 140).
      privileges: [...new Set(privilegesInScope(input, input.privileges))].sort(),
      staffUserId: input.staffUserId ?? null,
      distributorAccountId: input.distributorAccountId ?? null,
      agentId: input.agentId ?? null,
      integrationKeyId: input.integrationKeyId ?? null,
      createdAt: now,
      lastSeenAt: now,
      expiresAt,
      ipAddress: input.ipAddress ?? null,
      userAgent: input.userAgent?.slice(0, 500) ?? null,
    })
    .returning({ id: sessions.id });
  return { token, id: row!.id, expiresAt };
}

/**
 * The live-session lookup of every guarded request, prepared once per database (PostgreSQL keeps it parsed and
 * planned per connection: the statement is the same for every token).
 */
const liveSessionQueries = new WeakMap<Db, ReturnType<typeof buildLiveSessionQuery>>();
function buildLiveSessionQuery(db: Db) {
  return db
    .select({
      id: sessions.id,
      kind: sessions.kind,
      role: sessions.role,
      privileges: sessions.privileges,
      staffUserId: sessions.staffUserId,
      distributorAccountId: sessions.distributorAccountId,
      agentId: sessions.agentId,
      createdAt: sessions.createdAt,
      lastSeenAt: sessions.lastSeenAt,
      expiresAt: sessions.expiresAt,
      staffActive: staffUsers.active,
      staffEmail: staffUsers.email,
      staffName: staffUsers.name,
      staffManager: staffUsers.accountManagerUsername,
      staffAgentId: staffUsers.agentId,
      distributorActive: distributorAccounts.active,
      distributorEmail: distributorAccounts.email,
      distributorName: distributorAccounts.name,
      distributorManager: distributorAccounts.accountManagerUsername,
      agentActive: agents.active,
      agentEmail: agents.email,
      agentName: agents.name,
    })
    .from(sessions)
    .leftJoin(staffUsers, eq(staffUsers.id, sessions.staffUserId))
    .leftJoin(distributorAccounts, eq(distributorAccounts.id, sessions.distributorAccountId))
    .leftJoin(agents, eq(agents.id, sessions.agentId))
    .where(
      and(
        eq(sessions.tokenHash, sql.placeholder('tokenHash')),
        isNull(sessions.releasedAt),
        gt(sessions.expiresAt, sql.placeholder('now')),
      ),
    )
    .limit(1)
    .prepare('find_live_session');
}
function liveSessionQuery(db: Db) {
  let q = liveSessionQueries.get(db);
  if (!q) {
    q = buildLiveSessionQuery(db);
    liveSessionQueries.set(db, q);
  }
  return q;
}

/**
 * The live session of a token: not released, not expired, and its person still active. One query; the
 * names and e-mail come with it so handlers need not look them up again.
 */
export async function findLiveSession(
  db: Db,
  config: SessionTiming,
  token: string,
  now: Date,
): Promise<SessionContext | null> {
  const rows = await liveSessionQuery(db).execute({ tokenHash: hashToken(token), now });
  const r = rows[0];
  if (!r) return null;
  // The absolute limit holds even if the idle expiry was written under a longer configuration.
  if (now.getTime() >= r.createdAt.getTime() + config.sessionMaxHours * 3_600_000) return null;

  const base = {
    id: r.id,
    role: r.role,
    privileges: r.privileges,
    staffUserId: r.staffUserId,
    distributorAccountId: r.distributorAccountId,
    agentId: r.agentId,
    createdAt: r.createdAt,
    lastSeenAt: r.lastSeenAt,
    expiresAt: r.expiresAt,
  };
  switch (r.kind as SessionKind) {
    case 'staff':
      if (!r.staffActive) return null;
      return {
        ...base,
        kind: 'staff',
        email: r.staffEmail!,
        name: r.staffName!,
        accountManagerUsername: r.staffManager,
        agentId: r.agentId ?? r.staffAgentId,
      };
    case 'distributor':
      if (!r.distributorActive || r.agentActive === false) return null;
      return {
        ...base,
        kind: 'distributor',
        email: r.distributorEmail!,
        name: r.distributorName!,
        accountManagerUsername: r.distributorManager,
      };
    case 'maketoken':
      if (!r.agentActive) return null;
      return { ...base, kind: 'maketoken', email: r.agentEmail!, name: r.agentName!, accountManagerUsername: null };
    default:
      return null;
  }
}

/**
 * Record activity: at most once a minute, move last-seen to now and the idle expiry with it (capped by the
 * absolute expiry). Mutates `session` to the stored values.
 */
export async function touchSession(db: Db, config: SessionTiming, session: SessionContext, now: Date): Promise<void> {
  if (now.getTime() - session.lastSeenAt.getTime() < SESSION_TOUCH_INTERVAL_MS) return;
  const expiresAt = sessionExpiry(config, session.createdAt, now);
  await db
    .update(sessions)
    .set({ lastSeenAt: now, expiresAt })
    .where(and(eq(sessions.id, session.id), isNull(sessions.releasedAt)));
  session.lastSeenAt = now;
  session.expiresAt = expiresAt;
}

/** Release one session (logout). True when it was live. */
export async function releaseSession(db: Db, sessionId: number, now: Date): Promise<boolean> {
  const rows = await db
    .update(sessions)
    .set({ releasedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.releasedAt)))
    .returning({ id: sessions.id });
  return rows.length > 0;
}

/** Release every open session of a person (password reset, role change); returns how many. */
export async function releaseSessionsOf(
  db: Db,
  who: { staffUserId: number } | { distributorAccountId: number },
  now: Date,
  options: { exceptSessionId?: number } = {},
): Promise<number> {
  const owner =
    'staffUserId' in who
      ? eq(sessions.staffUserId, who.staffUserId)
      : eq(sessions.distributorAccountId, who.distributorAccountId);
  const rows = await db
    .update(sessions)
    .set({ releasedAt: now })
    .where(
      and(
        owner,
        isNull(sessions.releasedAt),
        gt(sessions.expiresAt, now),
        options.exceptSessionId === undefined ? undefined : sql`${sessions.id} <> ${options.exceptSessionId}`,
      ),
    )
    .returning({ id: sessions.id });
  return rows.length;
}
