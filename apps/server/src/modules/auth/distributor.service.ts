import { and, eq, gt, isNull, sql, type SQL } from 'drizzle-orm';
import { PASSWORD_PROBLEM_MESSAGES, normalizeEmail, passwordProblems, type DistributorLoginInfo } from '@pos/domain';
import { withTx, type AnyServiceCtx, type ServiceCtx } from '../../context';
import { agents, distributorAccounts, linkTokens, roles } from '../../db/schema';
import type { Db } from '../../db/client';
import { writeAudit } from '../../http/audit';
import { AppError } from '../../http/errors';
import { distributorPasswordResetEmail } from '../../integrations/mail/templates';
import { rolePrivilegeNames } from './auth.service';
import { hashPassword, verifyPassword } from '../../lib/passwords';
import { createSession, releaseSessionsOf } from '../../http/session-store';
import { hashToken, newToken } from '../../lib/tokens';

/** Failed logins in a row that lock a distributor account, and for how long. */
export const DISTRIBUTOR_MAX_FAILED_ATTEMPTS = 5;
export const DISTRIBUTOR_LOCK_MINUTES = 15;
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
      failedAttempts: distributorAccounts.failedAttempts,
      lockedUntil: distributorAccounts.lockedUntil,
    })
    .from(distributorAccounts)
    .innerJoin(roles, eq(roles.id, distributorAccounts.roleId))
    .innerJoin(agents, eq(agents.id, distributorAccounts.agentId))
    .where(where)
    .limit(1);
  return row ?? null;
}

const byEmail = (email: string): SQL => sql`lower(${distributorAccounts.email}) = ${normalizeEmail(email)}`;

function lockedError(until: Date): AppError {
  return new AppError(
    'unauthenticated',
    `Authentication failed: too many failed attempts. The account is locked until ${until.toISOString()}; try again later or reset the password.`,
    undefined,
    { reason: 'locked', locked_until: until.toISOString() },
  );
}

async function auditFailure(
  ctx: ServiceCtx<null>,
  reason: string,
  actor: { actorType: 'distributor' | 'anonymous'; actorId?: number; actorEmail: string },
) {
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
 * POST /api/auth/distributor/login: argon2id check; 5 failures in a row lock the account for 15 minutes
 * (a correct password is refused while locked); success clears the count and opens a distributor session.
 */
export async function signInDistributor(
  ctx: ServiceCtx<null>,
  input: { email: string; password: string },
): Promise<DistributorLoginInfo> {
  const now = ctx.app.clock.now();
  const email = normalizeEmail(input.email);
  const account = await findAccount(ctx, byEmail(email));
  if (!account) {
    await verifyPassword(null, input.password); // same time as a wrong password
    await auditFailure(ctx, 'unknown_account', { actorType: 'anonymous', actorEmail: email });
    throw new AppError(
      'unauthenticated',
      'Authentication failed: the e-mail address or password is wrong.',
      undefined,
      { reason: 'bad_credentials' },
    );
  }
  const actor = { actorType: 'distributor' as const, actorId: account.id, actorEmail: account.email };
  if (account.lockedUntil && account.lockedUntil > now) {
    await auditFailure(ctx, 'locked', actor);
    throw lockedError(account.lockedUntil);
  }

  if (!(await verifyPassword(account.passwordHash, input.password))) {
    const lock = await withTx(ctx, async (tx) => {
      const [current] = await tx
        .select({ failedAttempts: distributorAccounts.failedAttempts, lockedUntil: distributorAccounts.lockedUntil })
        .from(distributorAccounts)
        .where(eq(distributorAccounts.id, account.id))
        .for('update');
      // An expired lock starts a fresh count.
      const previous = current?.lockedUntil && current.lockedUntil <= now ? 0 : (current?.failedAttempts ?? 0);
      const failedAttempts = previous + 1;
      const lockedUntil =
        failedAttempts >= DISTRIBUTOR_MAX_FAILED_ATTEMPTS
          ? new Date(now.getTime() + DISTRIBUTOR_LOCK_MINUTES * 60_000)
          : null;
      await tx
        .update(distributorAccounts)
        .set({ failedAttempts: lockedUntil ? 0 : failedAttempts, lockedUntil })
        .where(eq(distributorAccounts.id, account.id));
      return lockedUntil;
    });
    await auditFailure(ctx, lock ? 'bad_password_locked' : 'bad_password', actor);
    if (lock) throw lockedError(lock);
    throw new AppError(
      'unauthenticated',
      'Authentication failed: the e-mail address or password is wrong.',
      undefined,
      { reason: 'bad_credentials' },
    );
  }
  if (!account.active || !account.agentActive) {
    await auditFailure(ctx, 'account_inactive', actor);
    throw new AppError('unauthenticated', 'Authentication failed: this distributor account is not active.', undefined, {
      reason: 'account_inactive',
    });
  }

  return withTx(ctx, async (tx) => {
    const privileges = await rolePrivilegeNames(tx, account.roleId);
    await tx
      .update(distributorAccounts)
      .set({ failedAttempts: 0, lockedUntil: null })
      .where(eq(distributorAccounts.id, account.id));
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
 * POST /api/auth/distributor/password/forgot: for an active account, a single-use link valid for an hour is
 * e-mailed (earlier unused links stop working). The answer is the same whether or not the account exists.
 */
export async function requestPasswordReset(ctx: ServiceCtx<null>, input: { email: string }): Promise<void> {
  const account = await findAccount(ctx, byEmail(input.email));
  if (!account?.active || !account.agentActive) return;
  await withTx(ctx, async (tx) => {
    const link = await sendDistributorPasswordLink(ctx, tx, account);
    await writeAudit(tx, {
      at: ctx.app.clock.now(),
      actorType: 'anonymous',
      actorEmail: account.email,
      action: 'password_reset_requested',
      entity: SUBJECT,
      entityId: account.id,
      after: { link_token_id: link.linkTokenId, expires_at: link.expiresAt.toISOString(), ip: ctx.ip },
      requestId: ctx.requestId,
    });
  });
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
        failedAttempts: 0,
        lockedUntil: null,
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
}
