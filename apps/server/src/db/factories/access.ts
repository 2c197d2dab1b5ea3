import { and, eq, inArray, sql } from 'drizzle-orm';
import { PERMISSIONS, ROLE, ROLES, ROLE_PRIVILEGES, ROLE_START_STATUS, type Permission, type Role } from '@pos/domain';
import type { Db } from '../client';
import {
  distributorAccounts,
  privileges,
  rolePrivileges,
  roles,
  staffUsers,
  userAdditionalPrivileges,
} from '../schema';
import { createAgent } from './agents';
import { uniqueSuffix } from './sequence';
import { hashPassword } from '../../lib/passwords';

export interface AccessData {
  /** Role name → roles.id */
  roles: ReadonlyMap<Role, number>;
  /** Privilege name → privileges.id */
  privileges: ReadonlyMap<Permission, number>;
}

const PRIVILEGE_DESCRIPTIONS: Partial<Record<Permission, string>> = {
  breath_of_life: 'Win back lapsed stores',
  ar_approvals: 'Approve credit memos and AR holds',
};

/**
 * Roles (with their start queue), privileges and role privileges exactly as the domain package defines
 * them. Idempotent: existing rows are kept (a role's start status is brought in line); returns name → id.
 */
export async function ensureAccessData(db: Db): Promise<AccessData> {
  await db
    .insert(roles)
    .values(ROLES.map((name) => ({ name, startStatus: ROLE_START_STATUS[name] })))
    .onConflictDoUpdate({
      target: roles.name,
      set: { startStatus: sql`excluded.start_status` },
      setWhere: sql`${roles.startStatus} <> excluded.start_status`,
    });
  await db
    .insert(privileges)
    .values(PERMISSIONS.map((name) => ({ name, description: PRIVILEGE_DESCRIPTIONS[name] ?? name.replace(/_/g, ' ') })))
    .onConflictDoNothing({ target: privileges.name });

  const roleRows = await db
    .select({ id: roles.id, name: roles.name })
    .from(roles)
    .where(inArray(roles.name, [...ROLES]));
  const privRows = await db
    .select({ id: privileges.id, name: privileges.name })
    .from(privileges)
    .where(inArray(privileges.name, [...PERMISSIONS]));
  const roleIds = new Map(roleRows.map((r) => [r.name as Role, r.id]));
  const privIds = new Map(privRows.map((p) => [p.name as Permission, p.id]));

  const pairs = ROLES.flatMap((role) =>
    ROLE_PRIVILEGES[role].map((p) => ({ roleId: roleIds.get(role)!, privilegeId: privIds.get(p)! })),
  );
  await db.insert(rolePrivileges).values(pairs).onConflictDoNothing();
  return { roles: roleIds, privileges: privIds };
}

export type StaffUserRow = typeof staffUsers.$inferSelect;

export interface CreateStaffUserInput {
  email?: string;
  name?: string;
  /** A domain role name; default Admin. */
  role?: Role;
  additionalPrivileges?: readonly Permission[];
  active?: boolean;
  agentId?: number | null;
  accountManagerUsername?: string | null;
}

function nameFromEmail(email: string): string {
  const local = email.split('@')[0] ?? email;
  return local
    .split(/[._-]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');
}

/** A staff user with a domain role (and optional additional privileges). Creates access data if missing. */
export async function createStaffUser(db: Db, input: CreateStaffUserInput = {}): Promise<StaffUserRow> {
  const access = await ensureAccessData(db);
  const role = input.role ?? ROLE.ADMIN;
  const email = input.email ?? `staff-${uniqueSuffix()}@example.com`;
  const [row] = await db
    .insert(staffUsers)
    .values({
      email,
      name: input.name ?? nameFromEmail(email),
      roleId: access.roles.get(role)!,
      active: input.active ?? true,
      agentId: input.agentId ?? null,
      accountManagerUsername: input.accountManagerUsername ?? null,
    })
    .returning();
  const extra = input.additionalPrivileges ?? [];
  if (extra.length > 0) {
    await db
      .insert(userAdditionalPrivileges)
      .values(extra.map((p) => ({ userId: row!.id, privilegeId: access.privileges.get(p)! })))
      .onConflictDoNothing();
  }
  return row!;
}

/** The privileges a staff user holds in the database (role + additional), sorted by name. */
export async function staffPrivilegesOf(db: Db, userId: number): Promise<string[]> {
  const viaRole = await db
    .select({ name: privileges.name })
    .from(staffUsers)
    .innerJoin(rolePrivileges, eq(rolePrivileges.roleId, staffUsers.roleId))
    .innerJoin(privileges, eq(privileges.id, rolePrivileges.privilegeId))
    .where(eq(staffUsers.id, userId));
  const extra = await db
    .select({ name: privileges.name })
    .from(userAdditionalPrivileges)
    .innerJoin(privileges, eq(privileges.id, userAdditionalPrivileges.privilegeId))
    .where(and(eq(userAdditionalPrivileges.userId, userId)));
  return [...new Set([...viaRole, ...extra].map((r) => r.name))].sort();
}

export type DistributorAccountRow = typeof distributorAccounts.$inferSelect;

export interface CreateDistributorAccountInput {
  email?: string;
  /** Plain password; stored as an argon2id hash. Default 'distributor-demo'. */
  password?: string;
  /** An existing hash (skips hashing, for speed in bulk). */
  passwordHash?: string;
  agentId?: number;
  name?: string;
  role?: Role;
  active?: boolean;
  accountManagerUsername?: string | null;
}

// The one password hash of the product (argon2id), shared with sign-in.
export { hashPassword };

/** A distributor login tied to an agent (one of type Distributor is created unless agentId is given). */
export async function createDistributorAccount(
  db: Db,
  input: CreateDistributorAccountInput = {},
): Promise<DistributorAccountRow> {
  const access = await ensureAccessData(db);
  const agentId = input.agentId ?? (await createAgent(db, { type: 'Distributor' })).id;
  const email = input.email ?? `distributor-${uniqueSuffix()}@example.com`;
  const passwordHash = input.passwordHash ?? (await hashPassword(input.password ?? 'distributor-demo'));
  const [row] = await db
    .insert(distributorAccounts)
    .values({
      email,
      name: input.name ?? nameFromEmail(email),
      passwordHash,
      agentId,
      roleId: access.roles.get(input.role ?? ROLE.DISTRIBUTOR)!,
      active: input.active ?? true,
      accountManagerUsername: input.accountManagerUsername ?? null,
    })
    .returning();
  return row!;
}
