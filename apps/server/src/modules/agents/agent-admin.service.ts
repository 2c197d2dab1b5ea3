import {
  AGENT_CSV_COLUMNS,
  ROLE,
  SALES_CHANNEL_CODES,
  mayEditAgents,
  type AgentCreateRequest,
  type AgentDeactivateRequest,
  type AgentDetail,
  type AgentInviteResult,
  type AgentPage,
  type AgentPageQuery,
  type AgentStorePage,
  type AgentStoresQuery,
  type AgentUpdateRequest,
  type SalesChannel,
} from '@pos/domain';
import { and, asc, count, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import type { Readable } from 'node:stream';
import { withTx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import {
  agents,
  agentStores,
  customers,
  distributorAccounts,
  invoiceBalances,
  invoices,
  roles,
  stores,
} from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError, versionConflict } from '../../http/errors';
import { releaseSessionsOf } from '../../http/session-store';
import { csvStream } from '../../lib/csv-stream';
import { hashPassword } from '../../lib/passwords';
import { newToken } from '../../lib/tokens';
import { sendDistributorPasswordLink } from '../auth';
import { agentNotFound, visibleAgentsWhere } from '../../access';

/*
 * The agents screens' calls (issue 17 point 1; decision 124): list, one agent, its stores, create, edit,
 * deactivate, invite to the distributor login. Reads go through the agent-access rule (another agent's record is
 * 404); writes need an agent editor (Admin, RAM or IS staff).
 */

const parent = alias(agents, 'parent_agent');

const detailColumns = {
  id: agents.id,
  name: agents.name,
  email: agents.email,
  phone: agents.phone,
  type: agents.type,
  salesChannel: agents.salesChannel,
  salesChannelCode: agents.salesChannelCode,
  parentAgentId: agents.parentAgentId,
  active: agents.active,
  contactName: agents.contactName,
  commissionPercent: agents.commissionPercent,
  version: agents.version,
  parentName: parent.name,
  storeCount: sql<number>`(select count(*)::int from ${agentStores} where ${agentStores.agentId} = ${agents.id})`,
  hasLogin: sql<boolean>`exists (select 1 from ${distributorAccounts} where ${distributorAccounts.agentId} = ${agents.id})`,
};

type DetailRow = {
  id: number;
  name: string;
  email: string;
  phone: string | null;
  type: string;
  salesChannel: string;
  salesChannelCode: number;
  parentAgentId: number | null;
  active: boolean;
  contactName: string | null;
  commissionPercent: string | null;
  version: number;
  parentName: string | null;
  storeCount: number;
  hasLogin: boolean;
};

function detailOut(r: DetailRow): AgentDetail {
  return {
    agent_id: r.id,
    name: r.name,
    email: r.email,
    phone: r.phone,
    type: r.type as AgentDetail['type'],
    sales_channel: r.salesChannel,
    sales_channel_code: r.salesChannelCode,
    parent_agent_id: r.parentAgentId,
    active: r.active,
    contact_name: r.contactName,
    commission_percent: r.commissionPercent === null ? null : Number(r.commissionPercent),
    parent_agent_name: r.parentName,
    store_count: Number(r.storeCount),
    has_login: Boolean(r.hasLogin),
    version: r.version,
  };
}

function detailQuery(db: Db) {
  return db.select(detailColumns).from(agents).leftJoin(parent, eq(parent.id, agents.parentAgentId));
}

function listWhere(ctx: ServiceCtx, q: AgentPageQuery): SQL | undefined {
  const where: (SQL | undefined)[] = [visibleAgentsWhere(ctx.session)];
  if (q.status !== 'all') where.push(eq(agents.active, q.status === 'active'));
  if (q.type) where.push(eq(agents.type, q.type));
  if (q.channel) where.push(eq(agents.salesChannel, q.channel));
  if (q.q) {
    const p = `%${q.q.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
    where.push(
      sql`(${agents.name} ilike ${p} or ${agents.email} ilike ${p} or coalesce(${agents.contactName}, '') ilike ${p})`,
    );
  }
  return and(...where);
}

async function pageRows(ctx: ServiceCtx, q: AgentPageQuery, limit: number, offset: number) {
  const rows = await detailQuery(ctx.app.database.db)
    .where(listWhere(ctx, q))
    .orderBy(asc(agents.name), asc(agents.id))
    .limit(limit)
    .offset(offset);
  return rows.map((r) => detailOut(r as DetailRow));
}

/** GET /api/agents/{token}: the agents the session may see, filtered, by name, one page. */
export async function listAgentPage(ctx: ServiceCtx, q: AgentPageQuery): Promise<AgentPage> {
  const [items, [total]] = await Promise.all([
    pageRows(ctx, q, q.limit, q.offset),
    ctx.app.database.db.select({ n: count() }).from(agents).where(listWhere(ctx, q)),
  ]);
  return { items, total: Number(total?.n ?? 0) };
}

/** The same list as CSV (every row the filters match, streamed page by page). */
export function agentPageCsv(ctx: ServiceCtx, q: AgentPageQuery): Readable {
  return csvStream([...AGENT_CSV_COLUMNS], async (limit, offset) =>
    (await pageRows(ctx, q, limit, offset)).map((a) => ({ ...a, status: a.active ? 'Active' : 'Inactive' })),
  );
}

/** One agent the session may see; otherwise 404 as if missing. */
export async function getAgent(ctx: ServiceCtx, agentId: number, db: Db = ctx.app.database.db): Promise<AgentDetail> {
  const [row] = await detailQuery(db).where(and(eq(agents.id, agentId), visibleAgentsWhere(ctx.session)));
  if (!row) throw agentNotFound(agentId);
  return detailOut(row as DetailRow);
}

/** GET /api/agents/{agentId}/{token}/stores: the agent's stores (agent_stores) with status and open balance. */
export async function listAgentStores(ctx: ServiceCtx, agentId: number, q: AgentStoresQuery): Promise<AgentStorePage> {
  const db = ctx.app.database.db;
  const agent = await getAgent(ctx, agentId);
  const linked = eq(agentStores.agentId, agentId);
  const [rows, [total]] = await Promise.all([
    db
      .select({
        storeId: stores.id,
        storeName: stores.storeName,
        customerId: stores.customerId,
        customerName: customers.legalName,
        state: stores.state,
        status: stores.status,
        currency: stores.currency,
        assignedAt: agentStores.assignedAt,
      })
      .from(agentStores)
      .innerJoin(stores, eq(stores.id, agentStores.storeId))
      .innerJoin(customers, eq(customers.id, stores.customerId))
      .where(linked)
      .orderBy(asc(stores.storeName), asc(stores.id))
      .limit(q.limit)
      .offset(q.offset),
    db.select({ n: count() }).from(agentStores).where(linked),
  ]);
  // One grouped read of the ledger view for the page's stores (no statement per store; decision 112).
  const ids = rows.map((r) => r.storeId);
  const balances =
    ids.length === 0
      ? []
      : await db
          .select({
            storeId: invoices.storeId,
            openCents: sql<string>`coalesce(sum(${invoiceBalances.openCents}), 0)::bigint`,
          })
          .from(invoices)
          .innerJoin(invoiceBalances, eq(invoiceBalances.invoiceId, invoices.id))
          .where(and(eq(invoices.status, 'N'), inArray(invoices.storeId, ids)))
          .groupBy(invoices.storeId);
  const open = new Map(balances.map((b) => [b.storeId, Number(b.openCents)]));
  return {
    agent,
    total: Number(total?.n ?? 0),
    items: rows.map((r) => ({
      store_id: r.storeId,
      store_name: r.storeName,
      customer_id: r.customerId,
      customer_name: r.customerName,
      state: r.state,
      status: r.status,
      status_label: r.status.charAt(0).toUpperCase() + r.status.slice(1),
      currency: r.currency,
      open_balance_cents: open.get(r.storeId) ?? 0,
      assigned_at: new Date(r.assignedAt).toISOString(),
    })),
  };
}

// ── Writes ─────────────────────────────────────────────────────────────────────────────────────────

function requireEditor(ctx: ServiceCtx) {
  if (!mayEditAgents(ctx.session))
    throw new AppError(
      'forbidden',
      'Creating, editing, inviting and deactivating agents needs the Admin, RAM or IS role.',
    );
}

/** A unique-index violation (PostgreSQL 23505), also when the driver wraps it. */
function isUniqueViolation(err: unknown): boolean {
  for (let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0; e && i < 5; e = e.cause as typeof e, i++)
    if (e.code === '23505') return true;
  return false;
}

const emailTaken = (email: string, id: number) => {
  const message = `Another agent (${id}) already has the e-mail ${email}.`;
  return new AppError('conflict', message, { email: message });
};

async function checkEmailFree(db: Db, email: string, exceptId: number | null) {
  const [other] = await db
    .select({ id: agents.id })
    .from(agents)
    .where(
      and(sql`lower(${agents.email}) = ${email}`, exceptId === null ? undefined : sql`${agents.id} <> ${exceptId}`),
    );
  if (other) throw emailTaken(email, other.id);
}

/** The parent must exist and must not be the agent itself or one of its sub-agents (no loop). */
async function checkParent(db: Db, parentId: number | null | undefined, agentId: number | null) {
  if (parentId === null || parentId === undefined) return;
  const [row] = await db.select({ id: agents.id }).from(agents).where(eq(agents.id, parentId));
  if (!row) {
    const message = `There is no agent ${parentId}.`;
    throw new AppError('validation_failed', message, { parent_agent_id: message });
  }
  if (agentId === null) return;
  const loop = await db.execute(
    sql`with recursive up(id, parent) as (select id, parent_agent_id from agents where id = ${parentId} union select a.id, a.parent_agent_id from agents a join up on a.id = up.parent) select 1 from up where id = ${agentId} limit 1`,
  );
  const hit = Array.isArray(loop) ? loop.length : ((loop as unknown as { rows: unknown[] }).rows?.length ?? 0);
  if (hit > 0) {
    const message = 'An agent cannot report to itself or to one of its own sub-agents.';
    throw new AppError('validation_failed', message, { parent_agent_id: message });
  }
}

const channelCode = (channel: string, current?: { channel: string; code: number }) =>
  current && current.channel === channel ? current.code : SALES_CHANNEL_CODES[channel as SalesChannel][0]!;

function values(body: AgentCreateRequest) {
  return {
    name: body.name,
    email: body.email,
    phone: body.phone ?? null,
    contactName: body.contact_name ?? null,
    type: body.type,
    salesChannel: body.sales_channel,
    parentAgentId: body.parent_agent_id ?? null,
    commissionPercent: body.commission_percent == null ? null : body.commission_percent.toFixed(2),
  };
}

const auditOf = (a: AgentDetail) => ({
  name: a.name,
  email: a.email,
  phone: a.phone,
  contact_name: a.contact_name,
  type: a.type,
  sales_channel: a.sales_channel,
  parent_agent_id: a.parent_agent_id,
  commission_percent: a.commission_percent,
  active: a.active,
});

/** POST /api/agents/{token}: a new agent (e-mail unique, compared lower-cased → 409). */
export async function createAgentRecord(ctx: ServiceCtx, body: AgentCreateRequest): Promise<AgentDetail> {
  requireEditor(ctx);
  try {
    return await withTx(ctx, async (db) => {
      await checkEmailFree(db, body.email, null);
      await checkParent(db, body.parent_agent_id, null);
      const now = ctx.app.clock.now();
      const [row] = await db
        .insert(agents)
        .values({ ...values(body), salesChannelCode: channelCode(body.sales_channel), createdAt: now, updatedAt: now })
        .returning({ id: agents.id });
      const created = await getAgent(ctx, row!.id, db);
      await writeAudit(db, {
        ...ctx.actor,
        at: now,
        action: 'agent_create',
        entity: 'agent',
        entityId: created.agent_id,
        after: auditOf(created),
        requestId: ctx.requestId,
      });
      return created;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken(body.email, 0);
    throw err;
  }
}

async function lockAgent(db: Db, agentId: number) {
  const [row] = await db.select().from(agents).where(eq(agents.id, agentId)).for('update');
  if (!row) throw agentNotFound(agentId);
  return row;
}

/** PUT /api/agents/{agentId}/{token}: edit an agent; a stale version → 409 with the current agent. */
export async function updateAgentRecord(
  ctx: ServiceCtx,
  agentId: number,
  body: AgentUpdateRequest,
): Promise<AgentDetail> {
  requireEditor(ctx);
  try {
    return await withTx(ctx, async (db) => {
      const row = await lockAgent(db, agentId);
      const before = await getAgent(ctx, agentId, db);
      if (row.version !== body.version) throw versionConflict(`Agent ${row.name}`, before, body.version);
      await checkEmailFree(db, body.email, agentId);
      await checkParent(db, body.parent_agent_id, agentId);
      const now = ctx.app.clock.now();
      await db
        .update(agents)
        .set({
          ...values(body),
          salesChannelCode: channelCode(body.sales_channel, { channel: row.salesChannel, code: row.salesChannelCode }),
          updatedAt: now,
          version: sql`${agents.version} + 1`,
        })
        .where(eq(agents.id, agentId));
      const after = await getAgent(ctx, agentId, db);
      await writeAudit(db, {
        ...ctx.actor,
        at: now,
        action: 'agent_update',
        entity: 'agent',
        entityId: agentId,
        before: auditOf(before),
        after: auditOf(after),
        requestId: ctx.requestId,
      });
      return after;
    });
  } catch (err) {
    if (isUniqueViolation(err)) throw emailTaken(body.email, 0);
    throw err;
  }
}

/**
 * POST /api/agents/{agentId}/{token}/deactivate: the agent stops (no longer offered for orders); its distributor
 * logins are switched off and their sessions end. Already inactive → 409.
 */
export async function deactivateAgent(
  ctx: ServiceCtx,
  agentId: number,
  body: AgentDeactivateRequest,
): Promise<AgentDetail> {
  requireEditor(ctx);
  return withTx(ctx, async (db) => {
    const row = await lockAgent(db, agentId);
    if (row.version !== body.version)
      throw versionConflict(`Agent ${row.name}`, await getAgent(ctx, agentId, db), body.version);
    if (!row.active) throw new AppError('conflict', `Agent ${row.name} is already inactive.`);
    const now = ctx.app.clock.now();
    await db
      .update(agents)
      .set({ active: false, updatedAt: now, version: sql`${agents.version} + 1` })
      .where(eq(agents.id, agentId));
    const logins = await db
      .update(distributorAccounts)
      .set({ active: false, updatedAt: now, version: sql`${distributorAccounts.version} + 1` })
      .where(and(eq(distributorAccounts.agentId, agentId), eq(distributorAccounts.active, true)))
      .returning({ id: distributorAccounts.id });
    for (const login of logins) await releaseSessionsOf(db, { distributorAccountId: login.id }, now);
    await writeAudit(db, {
      ...ctx.actor,
      at: now,
      action: 'agent_deactivate',
      entity: 'agent',
      entityId: agentId,
      before: { active: true },
      after: { active: false, distributor_account_ids: logins.map((l) => l.id) },
      requestId: ctx.requestId,
    });
    return getAgent(ctx, agentId, db);
  });
}

/**
 * POST /api/agents/{agentId}/{token}/invite: a Distributor agent's login to the distributor sign-in. The account is
 * made (agent e-mail, Distributor role, an unknowable password) unless the agent has one, and the reset flow's
 * single-use link is e-mailed so the person sets the password (decision 124).
 */
export async function inviteAgent(ctx: ServiceCtx, agentId: number): Promise<AgentInviteResult> {
  requireEditor(ctx);
  const placeholder = await hashPassword(newToken());
  return withTx(ctx, async (db) => {
    const agent = await lockAgent(db, agentId);
    if (agent.type !== 'Distributor' || !agent.active) {
      const message = !agent.active
        ? `Agent ${agent.name} is not active; activate it before inviting.`
        : `Only Distributor agents sign in to the distributor login; ${agent.name} is ${agent.type}.`;
      throw new AppError('validation_failed', message, { agent_id: message });
    }
    const email = agent.email.toLowerCase();
    const [existing] = await db
      .select()
      .from(distributorAccounts)
      .where(sql`lower(${distributorAccounts.email}) = ${email}`);
    if (existing && existing.agentId !== agentId) {
      const message = `The e-mail ${email} already signs in for another agent (${existing.agentId}).`;
      throw new AppError('conflict', message, { email: message });
    }
    const now = ctx.app.clock.now();
    let account = existing;
    if (!account) {
      const [role] = await db.select({ id: roles.id }).from(roles).where(eq(roles.name, ROLE.DISTRIBUTOR));
      if (!role) throw new AppError('conflict', 'The Distributor role is missing; ask an administrator.');
      [account] = await db
        .insert(distributorAccounts)
        .values({
          email,
          name: agent.contactName ?? agent.name,
          passwordHash: placeholder,
          agentId,
          roleId: role.id,
          createdAt: now,
          updatedAt: now,
        })
        .returning();
    } else if (!account.active) {
      await db
        .update(distributorAccounts)
        .set({ active: true, updatedAt: now, version: sql`${distributorAccounts.version} + 1` })
        .where(eq(distributorAccounts.id, account.id));
    }
    const link = await sendDistributorPasswordLink(ctx, db, { id: account!.id, name: account!.name, email });
    await writeAudit(db, {
      ...ctx.actor,
      at: now,
      action: 'agent_invite',
      entity: 'agent',
      entityId: agentId,
      after: {
        distributor_account_id: account!.id,
        created: !existing,
        link_token_id: link.linkTokenId,
        expires_at: link.expiresAt.toISOString(),
      },
      requestId: ctx.requestId,
    });
    return { agent_id: agentId, email, created: !existing };
  });
}
