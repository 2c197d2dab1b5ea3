import { and, asc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import {
  MAKE_TOKEN_SESSIONS_PER_KEY,
  ROLE,
  isAllowedEmailDomain,
  mayEditAgents,
  normalizeEmail,
  type LoginInfo,
  type ValidateInfo,
} from '@pos/domain';
import type { z } from 'zod';
import type { roleLookupInfo, roleLookupRequest } from '@pos/domain';
import { withTx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import {
  agents,
  integrationKeys,
  privileges,
  rolePrivileges,
  roles,
  sessions,
  staffUsers,
  userAdditionalPrivileges,
} from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError } from '../../http/errors';
import type { SessionContext } from '../../http/session';
import { IdTokenError } from '../../integrations/identity';
import { createSession, releaseSession, releaseSessionsOf } from '../../http/session-store';
import { hashToken, newToken } from '../../lib/tokens';

/** Every sign-in refusal the web shows as 'Authentication failed.' (spec §8); `reason` says why. */
function authFailed(reason: string, detail: string): AppError {
  return new AppError('unauthenticated', `Authentication failed: ${detail}`, undefined, { reason });
}

async function auditSignInFailure(
  ctx: ServiceCtx<null>,
  kind: 'staff' | 'distributor' | 'maketoken',
  reason: string,
  actor: { actorType: 'staff' | 'distributor' | 'anonymous'; actorId?: number | null; actorEmail?: string | null } = {
    actorType: 'anonymous',
  },
): Promise<void> {
  await writeAudit(ctx.app.database.db, {
    at: ctx.app.clock.now(),
    ...actor,
    action: 'sign_in_failed',
    entity: 'session',
    after: { kind, reason, ip: ctx.ip },
    requestId: ctx.requestId,
  });
}

/** The names of a role's privileges (from role_privileges). */
export async function rolePrivilegeNames(db: Db, roleId: number): Promise<string[]> {
  const rows = await db
    .select({ name: privileges.name })
    .from(rolePrivileges)
    .innerJoin(privileges, eq(privileges.id, rolePrivileges.privilegeId))
    .where(eq(rolePrivileges.roleId, roleId));
  return rows.map((r) => r.name).sort();
}

/** The names of a staff user's additional privileges. */
export async function additionalPrivilegeNames(db: Db, userId: number): Promise<string[]> {
  const rows = await db
    .select({ name: privileges.name })
    .from(userAdditionalPrivileges)
    .innerJoin(privileges, eq(privileges.id, userAdditionalPrivileges.privilegeId))
    .where(eq(userAdditionalPrivileges.userId, userId));
  return rows.map((r) => r.name).sort();
}

async function findStaffByEmail(db: Db, email: string) {
  const [row] = await db
    .select({
      id: staffUsers.id,
      email: staffUsers.email,
      name: staffUsers.name,
      active: staffUsers.active,
      roleId: staffUsers.roleId,
      role: roles.name,
      agentId: staffUsers.agentId,
      accountManagerUsername: staffUsers.accountManagerUsername,
      portalName: staffUsers.portalName,
    })
    .from(staffUsers)
    .innerJoin(roles, eq(roles.id, staffUsers.roleId))
    .where(sql`lower(${staffUsers.email}) = ${normalizeEmail(email)}`)
    .limit(1);
  return row ?? null;
}

/**
 * Staff sign-in (POST /api/auth/authenticate): verify the ID token, check the e-mail's domain, find the
 * active staff user, capture role ∪ additional privileges in a new session. Every outcome is audited.
 */
export async function signInStaff(ctx: ServiceCtx<null>, input: { idtoken: string }): Promise<LoginInfo> {
  const now = ctx.app.clock.now();
  let identity;
  try {
    identity = await ctx.app.identity.verify(input.idtoken, now);
  } catch (err) {
    if (!(err instanceof IdTokenError)) throw err;
    await auditSignInFailure(ctx, 'staff', err.reason);
    if (err.reason === 'provider_unavailable') {
      throw new AppError(
        'unavailable',
        'Authentication failed: the identity provider could not be reached. Try again shortly.',
      );
    }
    throw authFailed(err.reason, err.message.charAt(0).toLowerCase() + err.message.slice(1));
  }

  const email = normalizeEmail(identity.email);
  if (!isAllowedEmailDomain(email, ctx.app.config.allowedEmailDomains)) {
    await auditSignInFailure(ctx, 'staff', 'domain_not_allowed', { actorType: 'anonymous', actorEmail: email });
    throw authFailed('domain_not_allowed', 'addresses of this e-mail domain cannot sign in here.');
  }
  const user = await findStaffByEmail(ctx.app.database.db, email);
  if (!user) {
    await auditSignInFailure(ctx, 'staff', 'no_staff_user', { actorType: 'anonymous', actorEmail: email });
    throw authFailed('no_staff_user', 'there is no staff account for this e-mail address.');
  }
  if (!user.active) {
    await auditSignInFailure(ctx, 'staff', 'user_inactive', {
      actorType: 'staff',
      actorId: user.id,
      actorEmail: user.email,
    });
    throw authFailed('user_inactive', 'this staff account is not active.');
  }

  return withTx(ctx, async (tx) => {
    const viaRole = await rolePrivilegeNames(tx, user.roleId);
    const additional = await additionalPrivilegeNames(tx, user.id);
    const session = await createSession(tx, ctx.app.config, now, {
      kind: 'staff',
      role: user.role,
      privileges: [...viaRole, ...additional],
      staffUserId: user.id,
      agentId: user.agentId,
      ipAddress: ctx.ip,
      userAgent: ctx.userAgent,
    });
    await tx.update(staffUsers).set({ lastSignInAt: now }).where(eq(staffUsers.id, user.id));
    await writeAudit(tx, {
      at: now,
      actorType: 'staff',
      actorId: user.id,
      actorEmail: user.email,
      action: 'sign_in',
      entity: 'session',
      entityId: session.id,
      after: { kind: 'staff', role: user.role, ip: ctx.ip },
      requestId: ctx.requestId,
    });
    return {
      token: session.token,
      portal_name: user.portalName,
      name: user.name,
      email: user.email,
      role: user.role,
      additional_privileges: additional,
      agent_id: user.agentId,
      account_manager_username: user.accountManagerUsername,
    };
  });
}

/** GET /api/auth/validate/{token}. */
export function describeSession(session: SessionContext): ValidateInfo {
  return {
    maketoken: session.kind === 'maketoken',
    kind: session.kind,
    email: session.email,
    name: session.name,
    role: session.role,
    agent_id: session.agentId,
    account_manager_username: session.accountManagerUsername,
    privileges: session.privileges,
    expires_at: session.expiresAt.toISOString(),
  };
}

/** GET /api/auth/logout/{token}: the session is released; the token never works again. */
export async function signOut(ctx: ServiceCtx): Promise<void> {
  const now = ctx.app.clock.now();
  await withTx(ctx, async (tx) => {
    await releaseSession(tx, ctx.session.id, now);
    await writeAudit(tx, {
      at: now,
      ...ctx.actor,
      action: 'sign_out',
      entity: 'session',
      entityId: ctx.session.id,
      requestId: ctx.requestId,
    });
  });
}

/** GET /api/auth/permission/{token}?privileges=a,b → {a: true, b: false}. */
export function permissionMap(session: SessionContext, names: readonly string[]): Record<string, boolean> {
  const held = new Set(session.privileges);
  return Object.fromEntries(names.map((n) => [n, held.has(n)]));
}

/** The role a make-token session of an agent gets (RDC agents are RDC, everyone else Distributor). */
function makeTokenRole(agentType: string): string {
  return agentType === 'RDC' ? ROLE.RDC : ROLE.DISTRIBUTOR;
}

/** GET /api/auth/{x}/gettoken: a make-token ("distributor token") session for an integration key. */
export async function signInWithIntegrationKey(ctx: ServiceCtx<null>, key: string) {
  const now = ctx.app.clock.now();
  const [found] = await ctx.app.database.db
    .select({
      id: integrationKeys.id,
      agentId: integrationKeys.agentId,
      agentType: agents.type,
      agentActive: agents.active,
      agentEmail: agents.email,
    })
    .from(integrationKeys)
    .innerJoin(agents, eq(agents.id, integrationKeys.agentId))
    .where(and(eq(integrationKeys.keyHash, hashToken(key)), isNull(integrationKeys.revokedAt)))
    .limit(1);
  if (!found) {
    await auditSignInFailure(ctx, 'maketoken', 'unknown_key');
    throw authFailed('unknown_key', 'the integration key is not valid.');
  }
  if (!found.agentActive) {
    await auditSignInFailure(ctx, 'maketoken', 'agent_inactive', {
      actorType: 'distributor',
      actorId: found.agentId,
      actorEmail: found.agentEmail,
    });
    throw authFailed('agent_inactive', "the integration key's agent is not active.");
  }
  const role = makeTokenRole(found.agentType);
  return withTx(ctx, async (tx) => {
    // One key holds at most MAKE_TOKEN_SESSIONS_PER_KEY live sessions: the key's row is locked (two mints at once
    // count one after the other), then the oldest live sessions past the cap, less the one being made, are released.
    await tx
      .select({ id: integrationKeys.id })
      .from(integrationKeys)
      .where(eq(integrationKeys.id, found.id))
      .for('update');
    const live = await tx
      .select({ id: sessions.id })
      .from(sessions)
      .where(and(eq(sessions.integrationKeyId, found.id), isNull(sessions.releasedAt), gt(sessions.expiresAt, now)))
      .orderBy(asc(sessions.createdAt), asc(sessions.id));
    const released = live.slice(0, Math.max(0, live.length - MAKE_TOKEN_SESSIONS_PER_KEY + 1)).map((r) => r.id);
    if (released.length > 0) await tx.update(sessions).set({ releasedAt: now }).where(inArray(sessions.id, released));
    const [roleRow] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.name, role)).limit(1);
    const privs = roleRow ? await rolePrivilegeNames(tx, roleRow.id) : [];
    const session = await createSession(tx, ctx.app.config, now, {
      kind: 'maketoken',
      role,
      privileges: privs,
      agentId: found.agentId,
      integrationKeyId: found.id,
      ipAddress: ctx.ip,
      userAgent: ctx.userAgent,
    });
    await writeAudit(tx, {
      at: now,
      actorType: 'distributor',
      actorId: `agent:${found.agentId}`,
      actorEmail: found.agentEmail,
      action: 'sign_in',
      entity: 'session',
      entityId: session.id,
      after: {
        kind: 'maketoken',
        integration_key_id: found.id,
        role,
        ip: ctx.ip,
        ...(released.length > 0 ? { released_session_ids: released } : {}),
      },
      requestId: ctx.requestId,
    });
    return { token: session.token, maketoken: true as const, agent_id: found.agentId, role };
  });
}

type RoleLookupRequest = z.output<typeof roleLookupRequest>;
type RoleLookupInfo = z.output<typeof roleLookupInfo>;

async function roleInfo(db: Db, userId: number): Promise<RoleLookupInfo> {
  const [user] = await db
    .select({
      id: staffUsers.id,
      email: staffUsers.email,
      name: staffUsers.name,
      roleId: staffUsers.roleId,
      role: roles.name,
    })
    .from(staffUsers)
    .innerJoin(roles, eq(roles.id, staffUsers.roleId))
    .where(eq(staffUsers.id, userId));
  if (!user) throw new AppError('not_found', 'That staff user was not found.');
  // Sequential on purpose: `db` may be a transaction on PGlite's single connection.
  const viaRole = await rolePrivilegeNames(db, user.roleId);
  const additional = await additionalPrivilegeNames(db, user.id);
  return {
    id: user.id,
    email: user.email,
    name: user.name,
    role_id: user.roleId,
    role: user.role,
    privileges: [...new Set([...viaRole, ...additional])].sort(),
    additional_privileges: additional,
  };
}

function isAdmin(session: SessionContext): boolean {
  return session.kind === 'staff' && session.role === ROLE.ADMIN;
}

/**
 * PUT /api/auth/getIdOrUpdateLoginRolePrivilegeEmail/{token}. `{email}`: look up a staff user (one's own
 * record, or anyone's for an Admin). With role_id / login_role_privilege_id: change them (Admin only),
 * audited with before and after; the user's other sessions end so the next sign-in captures the change.
 */
export async function lookupOrUpdateStaffRole(ctx: ServiceCtx, input: RoleLookupRequest): Promise<RoleLookupInfo> {
  const { session } = ctx;
  const isUpdate = input.role_id !== undefined || input.login_role_privilege_id !== undefined;
  const email = normalizeEmail(input.email);
  if (isUpdate && !isAdmin(session))
    throw new AppError('forbidden', "Only an Admin can change a user's role or privileges.");
  if (!isUpdate && !isAdmin(session) && !(session.kind === 'staff' && normalizeEmail(session.email) === email)) {
    throw new AppError('forbidden', 'Only an Admin can look up other users.');
  }
  const user = await findStaffByEmail(ctx.app.database.db, email);
  if (!user) throw new AppError('not_found', `No staff user has the e-mail address ${email}.`);
  if (!isUpdate) return roleInfo(ctx.app.database.db, user.id);

  const now = ctx.app.clock.now();
  return withTx(ctx, async (tx) => {
    const before = await roleInfo(tx, user.id);
    if (input.role_id !== undefined) {
      const [role] = await tx.select({ id: roles.id }).from(roles).where(eq(roles.id, input.role_id));
      if (!role)
        throw new AppError('validation_failed', 'That role does not exist.', { role_id: 'Choose an existing role.' });
      await tx
        .update(staffUsers)
        .set({ roleId: input.role_id, updatedAt: now, version: sql`${staffUsers.version} + 1` })
        .where(eq(staffUsers.id, user.id));
    }
    if (input.login_role_privilege_id !== undefined) {
      const ids = [...new Set([input.login_role_privilege_id].flat())];
      if (ids.length > 0) {
        const found = await tx.select({ id: privileges.id }).from(privileges).where(inArray(privileges.id, ids));
        if (found.length !== ids.length) {
          throw new AppError('validation_failed', 'A privilege does not exist.', {
            login_role_privilege_id: 'Choose existing privileges.',
          });
        }
      }
      await tx.delete(userAdditionalPrivileges).where(eq(userAdditionalPrivileges.userId, user.id));
      if (ids.length > 0) {
        await tx
          .insert(userAdditionalPrivileges)
          .values(ids.map((privilegeId) => ({ userId: user.id, privilegeId, grantedAt: now })));
      }
    }
    const after = await roleInfo(tx, user.id);
    await writeAudit(tx, {
      at: now,
      ...ctx.actor,
      action: 'update_role_privileges',
      entity: 'staff_user',
      entityId: user.id,
      before: { role_id: before.role_id, role: before.role, additional_privileges: before.additional_privileges },
      after: { role_id: after.role_id, role: after.role, additional_privileges: after.additional_privileges },
      requestId: ctx.requestId,
    });
    await releaseSessionsOf(tx, { staffUserId: user.id }, now, { exceptSessionId: session.id });
    return after;
  });
}

/**
 * POST /api/customers/agents/checkemail/{token}: is there an agent with this e-mail (compared lower-cased)? Only for
 * agent editors (mayEditAgents: staff with the Admin, RAM or IS role; the route's guard refuses the others first).
 */
export async function checkAgentEmail(
  ctx: ServiceCtx,
  email: string,
): Promise<{ exists: boolean; agent_id: number | null }> {
  if (!mayEditAgents(ctx.session))
    throw new AppError('forbidden', 'Checking agent e-mails needs the Admin, RAM or IS role.');
  const [row] = await ctx.app.database.db
    .select({ id: agents.id })
    .from(agents)
    .where(sql`lower(${agents.email}) = ${normalizeEmail(email)}`)
    .limit(1);
  return { exists: Boolean(row), agent_id: row?.id ?? null };
}

/** POST /api/auth/integrationkeys/{token} (Admin): a new key for an active agent; the key is returned once. */
export async function createIntegrationKey(ctx: ServiceCtx, input: { name: string; agent_id: number }) {
  const { session } = ctx;
  const [agent] = await ctx.app.database.db
    .select({ id: agents.id, active: agents.active })
    .from(agents)
    .where(eq(agents.id, input.agent_id));
  if (!agent?.active)
    throw new AppError('validation_failed', 'That agent does not exist or is not active.', {
      agent_id: 'Choose an active agent.',
    });
  const key = newToken();
  const now = ctx.app.clock.now();
  return withTx(ctx, async (tx) => {
    const [row] = await tx
      .insert(integrationKeys)
      .values({
        keyHash: hashToken(key),
        name: input.name,
        agentId: agent.id,
        createdByStaffId: session.staffUserId,
        createdAt: now,
      })
      .returning({ id: integrationKeys.id });
    await writeAudit(tx, {
      at: now,
      ...ctx.actor,
      action: 'create',
      entity: 'integration_key',
      entityId: row!.id,
      after: { name: input.name, agent_id: agent.id },
      requestId: ctx.requestId,
    });
    return { id: row!.id, name: input.name, agent_id: agent.id, key };
  });
}

/** DELETE /api/auth/integrationkeys/{id}/{token} (Admin): the key stops making sessions and its live ones end. */
export async function revokeIntegrationKey(ctx: ServiceCtx, id: number): Promise<void> {
  const now = ctx.app.clock.now();
  await withTx(ctx, async (tx) => {
    const rows = await tx
      .update(integrationKeys)
      .set({ revokedAt: now })
      .where(and(eq(integrationKeys.id, id), isNull(integrationKeys.revokedAt)))
      .returning({ id: integrationKeys.id, name: integrationKeys.name, agentId: integrationKeys.agentId });
    if (rows.length === 0) throw new AppError('not_found', 'That integration key was not found or is already revoked.');
    const ended = await tx
      .update(sessions)
      .set({ releasedAt: now })
      .where(and(eq(sessions.integrationKeyId, id), isNull(sessions.releasedAt)))
      .returning({ id: sessions.id });
    await writeAudit(tx, {
      at: now,
      ...ctx.actor,
      action: 'revoke',
      entity: 'integration_key',
      entityId: id,
      before: { name: rows[0]!.name, agent_id: rows[0]!.agentId },
      after: { sessions_ended: ended.length },
      requestId: ctx.requestId,
    });
  });
}
