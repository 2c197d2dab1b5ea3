import {
  isAgentScoped,
  parseSort,
  PERMISSIONS,
  ROLES,
  STAFF_CSV_COLUMNS,
  type StaffAccount,
  type StaffList,
  type StaffListQuery,
  type StaffRolesPrivileges,
  type StaffSortField,
} from '@pos/domain';
import { and, asc, eq, ilike, or, sql, type SQL } from 'drizzle-orm';
import type { Readable } from 'node:stream';
import { withTx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { privileges, rolePrivileges, roles, staffUsers } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError, notFound } from '../../http/errors';
import { releaseSessionsOf } from '../../http/session-store';
import { csvStream } from '../../lib/csv-stream';
import { escapeLike } from '../../lib/sql-like';

/*
 * Staff accounts (issue 31 item 2, decision 157): the Admin's list of who works in the back office, and switching an
 * account off and on. A role or the extra privileges change through auth's PUT getIdOrUpdateLoginRolePrivilegeEmail
 * (lookupOrUpdateStaffRole), the one place that writes them. Every change here is audited and ends the account's
 * sessions, so what it may do is decided again at its next sign-in.
 */

/** The account's extra privileges, by name (a correlated sub-select: the staff list is small and paged). */
const additionalPrivilegesSql = sql<string[]>`coalesce((
  select array_agg(p.name order by p.name) from user_additional_privileges uap
    join privileges p on p.id = uap.privilege_id
   where uap.user_id = ${staffUsers.id}), '{}'::text[])`;

const accountColumns = {
  id: staffUsers.id,
  name: staffUsers.name,
  email: staffUsers.email,
  roleId: staffUsers.roleId,
  role: roles.name,
  additional: additionalPrivilegesSql,
  active: staffUsers.active,
  lastSignInAt: staffUsers.lastSignInAt,
  agentId: staffUsers.agentId,
};

interface AccountRow {
  id: number;
  name: string;
  email: string;
  roleId: number;
  role: string;
  additional: string[] | null;
  active: boolean;
  lastSignInAt: Date | string | null;
  agentId: number | null;
}

function toAccount(r: AccountRow): StaffAccount {
  return {
    id: r.id,
    name: r.name,
    email: r.email,
    role_id: r.roleId,
    role: r.role,
    additional_privileges: [...(r.additional ?? [])],
    active: r.active,
    last_sign_in_at: r.lastSignInAt === null ? null : new Date(r.lastSignInAt).toISOString(),
    agent_scoped: isAgentScoped({ kind: 'staff', role: r.role }),
    agent_id: r.agentId,
  };
}

function listWhere(q: StaffListQuery): SQL | undefined {
  const text = q.q?.trim();
  const pattern = text ? `%${escapeLike(text)}%` : null;
  return and(
    pattern ? or(ilike(staffUsers.name, pattern), ilike(staffUsers.email, pattern)) : undefined,
    q.role_id !== undefined ? eq(staffUsers.roleId, q.role_id) : undefined,
    q.active !== undefined ? eq(staffUsers.active, q.active) : undefined,
  );
}

/**
 * The order of the list: by name (default), e-mail or last sign-in, then id. Oldest sign-in first puts the accounts
 * that never signed in on top (the stalest); most recent first puts them last.
 */
function listOrder(q: StaffListQuery): SQL[] {
  const { field, desc } = parseSort<StaffSortField>(q.sort, 'name');
  const dir = desc ? sql`desc` : sql`asc`;
  switch (field) {
    case 'email':
      return [sql`lower(${staffUsers.email}) ${dir}`, sql`${staffUsers.id} ${dir}`];
    case 'last_sign_in_at':
      return [
        desc ? sql`${staffUsers.lastSignInAt} desc nulls last` : sql`${staffUsers.lastSignInAt} asc nulls first`,
        sql`${staffUsers.id} ${dir}`,
      ];
    case 'name':
    default:
      return [sql`lower(${staffUsers.name}) ${dir}`, sql`${staffUsers.id} ${dir}`];
  }
}

async function accountPage(db: Db, q: StaffListQuery, limit: number, offset: number): Promise<StaffAccount[]> {
  const rows = await db
    .select(accountColumns)
    .from(staffUsers)
    .innerJoin(roles, eq(roles.id, staffUsers.roleId))
    .where(listWhere(q))
    .orderBy(...listOrder(q))
    .limit(limit)
    .offset(offset);
  return rows.map(toAccount);
}

async function accountOf(db: Db, id: number): Promise<StaffAccount | null> {
  const [row] = await db
    .select(accountColumns)
    .from(staffUsers)
    .innerJoin(roles, eq(roles.id, staffUsers.roleId))
    .where(eq(staffUsers.id, id));
  return row ? toAccount(row) : null;
}

/** GET /api/admin/staff/{token}: a page of staff accounts with the exact total. */
export async function listStaff(ctx: ServiceCtx, q: StaffListQuery): Promise<StaffList> {
  const db = ctx.app.database.db;
  // One after the other: PGlite has one connection.
  const items = await accountPage(db, q, q.limit, q.offset);
  const [count] = await db
    .select({ n: sql<number>`count(*)::int` })
    .from(staffUsers)
    .where(listWhere(q));
  return { items, total: Number(count?.n ?? 0) };
}

/** GET /api/admin/staff/{id}/{token}: one account (404 for an unknown id). */
export async function getStaffAccount(ctx: ServiceCtx, staffId: number): Promise<StaffAccount> {
  const account = await accountOf(ctx.app.database.db, staffId);
  if (!account) throw notFound(`Staff account ${staffId}`);
  return account;
}

type CsvRow = Record<(typeof STAFF_CSV_COLUMNS)[number], string | number | null>;

/** The staff list as CSV: every matching account in the list's order. */
export function staffCsv(ctx: ServiceCtx, q: StaffListQuery): Readable {
  return csvStream<CsvRow>(STAFF_CSV_COLUMNS, async (limit, offset) =>
    (await accountPage(ctx.app.database.db, q, limit, offset)).map((a) => ({
      id: a.id,
      name: a.name,
      email: a.email,
      role: a.role,
      additional_privileges: a.additional_privileges.join(' '),
      active: a.active ? 'yes' : 'no',
      last_sign_in_at: a.last_sign_in_at,
    })),
  );
}

/** Where a name stands in a domain list (unknown names after the known ones). */
const rank = (list: readonly string[], name: string) => {
  const i = list.indexOf(name);
  return i === -1 ? list.length : i;
};

/** GET /api/admin/staff/roles-privileges/{token}: the roles with what each grants, and every privilege. */
export async function rolesAndPrivileges(ctx: ServiceCtx): Promise<StaffRolesPrivileges> {
  const db = ctx.app.database.db;
  const roleRows = await db.select({ id: roles.id, name: roles.name }).from(roles);
  const grants = await db
    .select({ roleId: rolePrivileges.roleId, name: privileges.name })
    .from(rolePrivileges)
    .innerJoin(privileges, eq(privileges.id, rolePrivileges.privilegeId));
  const privRows = await db
    .select({ id: privileges.id, name: privileges.name, description: privileges.description })
    .from(privileges)
    .orderBy(asc(privileges.name));
  const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
  return {
    roles: roleRows
      .sort((a, b) => rank(ROLES, a.name) - rank(ROLES, b.name) || byName(a, b))
      .map((r) => ({
        id: r.id,
        name: r.name,
        privileges: grants
          .filter((g) => g.roleId === r.id)
          .map((g) => g.name)
          .sort((a, b) => rank(PERMISSIONS, a) - rank(PERMISSIONS, b) || a.localeCompare(b)),
        agent_scoped: isAgentScoped({ kind: 'staff', role: r.name }),
      })),
    privileges: privRows.sort((a, b) => rank(PERMISSIONS, a.name) - rank(PERMISSIONS, b.name) || byName(a, b)),
  };
}

/**
 * Switch an account off (`active: false`) or on. Off: it cannot sign in and every session it has ends now. On: it
 * may sign in again — a fresh sign-in; any session left open from before ends too. An Admin never switches their own
 * account off (409: another Admin does). Audited with before and after; an account already in that state is answered
 * as it is, nothing written.
 */
export async function setStaffActive(
  ctx: ServiceCtx,
  input: { staffId: number; active: boolean },
): Promise<StaffAccount> {
  const { staffId, active } = input;
  if (!active && ctx.session.staffUserId === staffId)
    throw new AppError('conflict', 'You cannot deactivate your own account. Another Admin can.');
  const now = ctx.app.clock.now();
  return withTx(ctx, async (tx) => {
    const [row] = await tx
      .select({ id: staffUsers.id, active: staffUsers.active, email: staffUsers.email })
      .from(staffUsers)
      .where(eq(staffUsers.id, staffId))
      .for('update');
    if (!row) throw notFound(`Staff account ${staffId}`);
    if (row.active !== active) {
      await tx
        .update(staffUsers)
        .set({ active, updatedAt: now, version: sql`${staffUsers.version} + 1` })
        .where(eq(staffUsers.id, staffId));
      const ended = await releaseSessionsOf(tx, { staffUserId: staffId }, now);
      await writeAudit(tx, {
        at: now,
        ...ctx.actor,
        action: active ? 'reactivate' : 'deactivate',
        entity: 'staff_user',
        entityId: staffId,
        before: { active: row.active, email: row.email },
        after: { active, email: row.email, sessions_ended: ended },
        requestId: ctx.requestId,
      });
    }
    return (await accountOf(tx, staffId))!;
  });
}
