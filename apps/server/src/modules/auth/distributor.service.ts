import { and, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import {
  JOB_QUEUE,
  PASSWORD_PROBLEM_MESSAGES,
  normalizeEmail,
  passwordProblems,
  type DistributorLoginInfo,
} from '@pos/domain';
import { withTx, type AnyServiceCtx, type ServiceCtx } from '../../context';
import { agents, distributorAccounts, linkTokens, roles } from '../../db/schema';
import type { Db } from '../../db/client';
import { writeAudit, type AuditActor } from '../../http/audit';
import { AppError, RateLimitedError } from '../../http/errors';
import type { JobRequest } from '../../jobs/context';
import { QUEUE_DEFINITIONS } from '../../jobs/definitions';
import { distributorPasswordResetEmail } from '../../integrations/mail/templates';
import { rolePrivilegeNames } from './auth.service';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { createSession, releaseSessionsOf } from '../../http/session-store';
import { hashToken, newToken } from '../../lib/tokens';

/** A password-reset link works once, for one hour. */
export const PASSWORD_RESET_TTL_MINUTES = 60;
export const PASSWORD_RESET_PURPOSE = 'distributor_password_reset';

const SUBJECT = 'distributor_account';

async function findAccount(ctx: ServiceCtx<null>, where: SQL) {
  const [row] = await ctx.app.database.db
    .select({
      id: distributorAccounts.id,
      email: distributorAccounts.email,
      name: distributorAccounts.name,
      passwordHash: distributorAccounts.passwordHash,
      agentId: distributorAccounts.agentId,
      roleId: distributorAccounts.roleId,
      role: roles.name,
      accountManagerUsername: distributorAccounts.accountManagerUsername,
      active: distributorAccounts.active,
      agentActive: agents.active,
    })
    .from(distributorAccounts)
    .innerJoin(roles, eq(roles.id, distributorAccounts.roleId))
    .innerJoin(agents, eq(agents.id, distributorAccounts.agentId))
    .where(where)
    .limit(1);
  return row ?? null;
}

const byEmail = (email: string): SQL => sql`lower(${distributorAccounts.email}) = ${normalizeEmail(email)}`;

/** The one answer to a wrong password and to an e-mail no account has (decision 141). */
export const BAD_CREDENTIALS_MESSAGE = 'Authentication failed: the e-mail address or password is wrong.';

function badCredentials(): AppError {
  return new AppError('unauthenticated', BAD_CREDENTIALS_MESSAGE, undefined, { reason: 'bad_credentials' });
}

/** The one answer while the caller's attempts are throttled, whether or not an account has the e-mail. */
function throttled(waitMs: number): RateLimitedError {
  const seconds = Math.ceil(waitMs / 1000);
  return new RateLimitedError(
    `Too many failed sign-in attempts. Wait ${seconds} second${seconds === 1 ? '' : 's'} and try again, or reset your password.`,
    seconds,
  );
}

async function auditFailure(ctx: ServiceCtx<null>, reason: string, actor: AuditActor) {
  await writeAudit(ctx.app.database.db, {
    at: ctx.app.clock.now(),
    ...actor,
    action: 'sign_in_failed',
    entity: 'session',
    after: { kind: 'distributor', reason, ip: ctx.ip },
    requestId: ctx.requestId,
  });
}

/**
 * POST /api/auth/distributor/login (decision 141): argon2id check, throttled by growing delays — per (client address,
 * e-mail), per client address and per e-mail (SIGN_IN_THROTTLE; lib/sign-in-throttle.ts) — instead of a lock anyone
 * could set off. A wrong password and an e-mail no account has do the same work (a password check, one count, one
 * audit row) and get the same answer (401); a throttled caller gets 429 rate_limited with Retry-After, the same for
 * a known and an unknown e-mail, without the password being checked. Success clears the pair's count and opens a
 * distributor session; an inactive account is told so only after the right password.
 */
export async function signInDistributor(
  ctx: ServiceCtx<null>,
  input: { email: string; password: string },
): Promise<DistributorLoginInfo> {
  const now = ctx.app.clock.now();
  const email = normalizeEmail(input.email);
  const client = ctx.ip ?? 'unknown';
  const throttle = ctx.app.signInThrottle;
  const wait = throttle.retryAfterMs(client, email, now);
  if (wait > 0) {
    await auditFailure(ctx, 'throttled', { actorType: 'anonymous', actorEmail: email });
    throw throttled(wait);
  }
  const account = await findAccount(ctx, byEmail(email));
  // Without an account a dummy hash is checked: an unknown e-mail takes as long as a wrong password.
  const passwordOk = await verifyPassword(account?.passwordHash ?? null, input.password);
  if (!account || !passwordOk) {
    throttle.recordFailure(client, email, now);
    await auditFailure(
      ctx,
      account ? 'bad_password' : 'unknown_account',
      account
        ? { actorType: 'distributor', actorId: account.id, actorEmail: account.email }
        : { actorType: 'anonymous', actorEmail: email },
    );
    throw badCredentials();
  }
  const actor = { actorType: 'distributor' as const, actorId: account.id, actorEmail: account.email };
  if (!account.active || !account.agentActive) {
    await auditFailure(ctx, 'account_inactive', actor);
    throw new AppError('unauthenticated', 'Authentication failed: this distributor account is not active.', undefined, {
      reason: 'account_inactive',
    });
  }
  throttle.recordSuccess(client, email);

  return withTx(ctx, async (tx) => {
    const privileges = await rolePrivilegeNames(tx, account.roleId);
    const session = await createSession(tx, ctx.app.config, now, {
      kind: 'distributor',
      role: account.role,
      privileges,
      distributorAccountId: account.id,
      agentId: account.agentId,
      ipAddress: ctx.ip,
      userAgent: ctx.userAgent,
    });
    await writeAudit(tx, {
      at: now,
      ...actor,
      action: 'sign_in',
      entity: 'session',
      entityId: session.id,
      after: { kind: 'distributor', role: account.role, ip: ctx.ip },
      requestId: ctx.requestId,
    });
    return {
      token: session.token,
      name: account.name,
      email: account.email,
      agent_id: account.agentId,
      account_manager_username: account.accountManagerUsername,
      role: account.role,
      additional_privileges: [],
    };
  });
}

/** The address of the reset page (the spec's spelling 'passsword'; the web also accepts 'password'). */
export function passwordResetLink(publicUrl: string, token: string): string {
  return `${publicUrl}/#/distributor/passsword/reset/${token}`;
}

/**
 * POST /api/auth/distributor/password/forgot (decision 141): the request only records the ask — one job on the
 * 'distributor-password-reset' queue and its audit entry, in one transaction — the same statements whether or not an
 * account has the e-mail, so the answer tells nothing and takes the same time. The worker (mailPasswordResetLink)
 * looks the account up and, for an active one, e-mails the link, off the request path.
 */
export async function requestPasswordReset(ctx: ServiceCtx<null>, input: { email: string }): Promise<void> {
  const email = normalizeEmail(input.email);
  const { queue } = ctx.app;
  const definition = QUEUE_DEFINITIONS[JOB_QUEUE.distributorPasswordReset];
  // Outside the transaction: creating a queue runs on the pool (PGlite has one connection); once per process.
  await queue.ensure(definition);
  const requestedBy: AuditActor = { actorType: 'anonymous', actorEmail: email };
  const job: JobRequest<typeof JOB_QUEUE.distributorPasswordReset> = {
    input: { email },
    requestedBy,
    requestId: ctx.requestId,
  };
  await withTx(ctx, async (tx) => {
    const jobId = await queue.send(definition.name, job, {}, tx);
    await writeAudit(tx, {
      ...requestedBy,
      at: ctx.app.clock.now(),
      action: 'enqueue',
      entity: definition.name,
      entityId: jobId,
      after: { email, ip: ctx.ip },
      requestId: ctx.requestId,
    });
  });
  queue.wake(definition.name);
}

/**
 * The 'distributor-password-reset' job's work, in the worker's transaction: for an active account with the e-mail,
 * a new link (sendDistributorPasswordLink) and the audit entry 'password_reset_requested'; for any other e-mail
 * nothing. The output says which (the job is an Admin's to read).
 */
export async function mailPasswordResetLink(
  ctx: AnyServiceCtx,
  tx: Db,
  email: string,
): Promise<{ sent: boolean; distributor_account_id?: number }> {
  const [account] = await tx
    .select({
      id: distributorAccounts.id,
      email: distributorAccounts.email,
      name: distributorAccounts.name,
      active: distributorAccounts.active,
      agentActive: agents.active,
    })
    .from(distributorAccounts)
    .innerJoin(agents, eq(agents.id, distributorAccounts.agentId))
    .where(byEmail(email))
    .limit(1);
  if (!account?.active || !account.agentActive) return { sent: false };
  const link = await sendDistributorPasswordLink(ctx, tx, account);
  await writeAudit(tx, {
    at: ctx.app.clock.now(),
    actorType: 'anonymous',
    actorEmail: account.email,
    action: 'password_reset_requested',
    entity: SUBJECT,
    entityId: account.id,
    after: { link_token_id: link.linkTokenId, expires_at: link.expiresAt.toISOString() },
    requestId: ctx.requestId,
  });
  return { sent: true, distributor_account_id: account.id };
}

/**
 * The reset flow's link for one distributor account, inside the caller's transaction: earlier unused links stop
 * working, a new single-use link valid for PASSWORD_RESET_TTL_MINUTES is stored and e-mailed (the mail is kept with
 * the transaction). Used by "forgot password" and by the agents screen's invitation (decision 124).
 */
export async function sendDistributorPasswordLink(
  ctx: AnyServiceCtx,
  tx: Db,
  account: { id: number; name: string; email: string },
): Promise<{ linkTokenId: number; expiresAt: Date }> {
  const now = ctx.app.clock.now();
  const token = newToken();
  const link = passwordResetLink(ctx.app.config.publicUrl, token);
  const expiresAt = new Date(now.getTime() + PASSWORD_RESET_TTL_MINUTES * 60_000);
  await tx
    .update(linkTokens)
    .set({ revokedAt: now })
    .where(
      and(
        eq(linkTokens.purpose, PASSWORD_RESET_PURPOSE),
        eq(linkTokens.subjectType, SUBJECT),
        eq(linkTokens.subjectId, String(account.id)),
        isNull(linkTokens.usedAt),
        isNull(linkTokens.revokedAt),
      ),
    );
  const [row] = await tx
    .insert(linkTokens)
    .values({
      tokenHash: hashToken(token),
      purpose: PASSWORD_RESET_PURPOSE,
      subjectType: SUBJECT,
      subjectId: String(account.id),
      createdAt: now,
      expiresAt,
    })
    .returning({ id: linkTokens.id });
  const message = distributorPasswordResetEmail({ name: account.name, link, ttlMinutes: PASSWORD_RESET_TTL_MINUTES });
  await ctx.app.mail.send(
    {
      to: account.email,
      subject: message.subject,
      template: message.template,
      text: message.text,
      html: message.html,
      links: message.links,
      related: { type: SUBJECT, id: account.id },
    },
    { db: tx },
  );
  return { linkTokenId: row!.id, expiresAt };
}

const INVALID_LINK =
  'This password-reset link is not valid any more (it was used, replaced or has expired). Ask for a new one.';

/**
 * POST /api/auth/distributor/password/reset: the link's token, used once and only before it expires; the
 * password policy is checked against the account's own e-mail; every session of the distributor ends.
 */
export async function resetPassword(ctx: ServiceCtx<null>, input: { token: string; password: string }): Promise<void> {
  const now = ctx.app.clock.now();
  const tokenHash = hashToken(input.token);
  const live = and(
    eq(linkTokens.tokenHash, tokenHash),
    eq(linkTokens.purpose, PASSWORD_RESET_PURPOSE),
    isNull(linkTokens.usedAt),
    isNull(linkTokens.revokedAt),
    gt(linkTokens.expiresAt, now),
  );
  const [link] = await ctx.app.database.db
    .select({ subjectId: linkTokens.subjectId })
    .from(linkTokens)
    .where(live)
    .limit(1);
  if (!link) throw new AppError('validation_failed', INVALID_LINK, { token: INVALID_LINK });
  const account = await findAccount(ctx, eq(distributorAccounts.id, Number(link.subjectId)));
  if (!account) throw new AppError('validation_failed', INVALID_LINK, { token: INVALID_LINK });

  const problems = passwordProblems(input.password, account.email);
  if (problems.length > 0) {
    const message = problems.map((p) => PASSWORD_PROBLEM_MESSAGES[p]).join(' ');
    throw new AppError('validation_failed', `Please choose another password: ${message}`, { password: message });
  }
  const passwordHash = await hashPassword(input.password);

  await withTx(ctx, async (tx) => {
    // Consume the link; a second use (even a concurrent one) finds nothing to update.
    const used = await tx.update(linkTokens).set({ usedAt: now }).where(live).returning({ id: linkTokens.id });
    if (used.length === 0) throw new AppError('validation_failed', INVALID_LINK, { token: INVALID_LINK });
    await tx
      .update(distributorAccounts)
      .set({
        passwordHash,
        passwordChangedAt: now,
        updatedAt: now,
        version: sql`${distributorAccounts.version} + 1`,
      })
      .where(eq(distributorAccounts.id, account.id));
    await tx
      .update(linkTokens)
      .set({ revokedAt: now })
      .where(
        and(
          eq(linkTokens.purpose, PASSWORD_RESET_PURPOSE),
          eq(linkTokens.subjectType, SUBJECT),
          eq(linkTokens.subjectId, String(account.id)),
          isNull(linkTokens.usedAt),
          isNull(linkTokens.revokedAt),
        ),
      );
    const released = await releaseSessionsOf(tx, { distributorAccountId: account.id }, now);
    await writeAudit(tx, {
      at: now,
      actorType: 'distributor',
      actorId: account.id,
      actorEmail: account.email,
      action: 'password_reset',
      entity: SUBJECT,
      entityId: account.id,
      after: { link_token_id: used[0]!.id, sessions_released: released, ip: ctx.ip },
      requestId: ctx.requestId,
    });
  });
  // The owner proved the mailbox: the sign-in throttle's counts for this account start again.
  ctx.app.signInThrottle.forgetAccount(normalizeEmail(account.email));
}
