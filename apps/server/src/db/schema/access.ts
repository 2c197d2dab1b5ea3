import { sql } from 'drizzle-orm';
import {
  boolean,
  check,
  index,
  integer,
  pgTable,
  type AnyPgColumn,
  primaryKey,
  text,
  timestamp,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { ORDER_STATUS_CODES } from '@pos/domain';
import { agents } from './agents';
import { inList, timestamps, version } from './columns';

export const roles = pgTable(
  'roles',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    /** The order status queue this role starts from (spec §6). */
    startStatus: text().notNull(),
    ...timestamps,
  },
  (t) => [
    uniqueIndex('roles_name_uq').on(t.name),
    check('roles_start_status_check', inList(t.startStatus, ORDER_STATUS_CODES)),
  ],
);

export const privileges = pgTable(
  'privileges',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    name: text().notNull(),
    description: text(),
  },
  (t) => [uniqueIndex('privileges_name_uq').on(t.name)],
);

export const rolePrivileges = pgTable(
  'role_privileges',
  {
    roleId: integer()
      .notNull()
      .references(() => roles.id, { onDelete: 'cascade' }),
    privilegeId: integer()
      .notNull()
      .references(() => privileges.id, { onDelete: 'cascade' }),
  },
  (t) => [primaryKey({ columns: [t.roleId, t.privilegeId] }), index('role_privileges_privilege_idx').on(t.privilegeId)],
);

export const staffUsers = pgTable(
  'staff_users',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    email: text().notNull(),
    name: text().notNull(),
    roleId: integer()
      .notNull()
      .references(() => roles.id),
    active: boolean().notNull().default(true),
    /** The account manager's username shown with the session (spec §3 account_manager_username). */
    accountManagerUsername: text(),
    agentId: integer().references(() => agents.id),
    portalName: text().notNull().default('POS Back Office'),
    lastSignInAt: timestamp({ withTimezone: true }),
    ...timestamps,
    ...version,
  },
  (t) => [
    uniqueIndex('staff_users_email_uq').on(sql`lower(${t.email})`),
    index('staff_users_role_idx').on(t.roleId),
    index('staff_users_agent_idx').on(t.agentId),
  ],
);

export const userAdditionalPrivileges = pgTable(
  'user_additional_privileges',
  {
    userId: integer()
      .notNull()
      .references(() => staffUsers.id, { onDelete: 'cascade' }),
    privilegeId: integer()
      .notNull()
      .references(() => privileges.id, { onDelete: 'cascade' }),
    grantedAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.privilegeId] }),
    index('user_additional_privileges_privilege_idx').on(t.privilegeId),
  ],
);

export const distributorAccounts = pgTable(
  'distributor_accounts',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    email: text().notNull(),
    name: text().notNull(),
    /** argon2id hash; never the password. */
    passwordHash: text().notNull(),
    agentId: integer()
      .notNull()
      .references(() => agents.id),
    roleId: integer()
      .notNull()
      .references(() => roles.id),
    accountManagerUsername: text(),
    active: boolean().notNull().default(true),
    failedAttempts: integer().notNull().default(0),
    lockedUntil: timestamp({ withTimezone: true }),
    passwordChangedAt: timestamp({ withTimezone: true }),
    ...timestamps,
    ...version,
  },
  (t) => [
    uniqueIndex('distributor_accounts_email_uq').on(sql`lower(${t.email})`),
    index('distributor_accounts_agent_idx').on(t.agentId),
    index('distributor_accounts_role_idx').on(t.roleId),
  ],
);

export const SESSION_KINDS = ['staff', 'distributor', 'maketoken'] as const;

/** A signed-in session. Only the SHA-256 of its token is stored. */
export const sessions = pgTable(
  'sessions',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    tokenHash: text().notNull(),
    kind: text().notNull(),
    staffUserId: integer().references(() => staffUsers.id, { onDelete: 'cascade' }),
    distributorAccountId: integer().references(() => distributorAccounts.id, { onDelete: 'cascade' }),
    agentId: integer().references(() => agents.id),
    /** The integration key of a make-token session (revoking the key ends its sessions). */
    integrationKeyId: integer().references((): AnyPgColumn => integrationKeys.id),
    role: text().notNull(),
    /** Privileges captured at sign-in. */
    privileges: text().array().notNull(),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    releasedAt: timestamp({ withTimezone: true }),
    ipAddress: text(),
    userAgent: text(),
  },
  (t) => [
    uniqueIndex('sessions_token_hash_uq').on(t.tokenHash),
    index('sessions_staff_user_idx').on(t.staffUserId),
    index('sessions_distributor_idx').on(t.distributorAccountId),
    index('sessions_agent_idx').on(t.agentId),
    index('sessions_integration_key_idx').on(t.integrationKeyId),
    check('sessions_kind_check', inList(t.kind, SESSION_KINDS)),
  ],
);

export const LINK_TOKEN_PURPOSES = [
  'contract_sign',
  'contract_reauthorize',
  'payment_update',
  'payment_instrument',
  'features',
  'distributor_password_reset',
] as const;

/** Single-purpose, expiring, revocable links sent to merchants and distributors. Only the hash is stored. */
export const linkTokens = pgTable(
  'link_tokens',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    tokenHash: text().notNull(),
    purpose: text().notNull(),
    subjectType: text().notNull(),
    subjectId: text().notNull(),
    createdByStaffId: integer().references(() => staffUsers.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp({ withTimezone: true }).notNull(),
    usedAt: timestamp({ withTimezone: true }),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('link_tokens_token_hash_uq').on(t.tokenHash),
    index('link_tokens_subject_idx').on(t.subjectType, t.subjectId),
    index('link_tokens_created_by_idx').on(t.createdByStaffId),
    check('link_tokens_purpose_check', inList(t.purpose, LINK_TOKEN_PURPOSES)),
  ],
);

/** Integration keys for `GET /api/auth/{x}/gettoken` (make-token sessions), tied to an agent. */
export const integrationKeys = pgTable(
  'integration_keys',
  {
    id: integer().primaryKey().generatedByDefaultAsIdentity(),
    keyHash: text().notNull(),
    name: text().notNull(),
    agentId: integer()
      .notNull()
      .references(() => agents.id),
    createdByStaffId: integer().references(() => staffUsers.id),
    createdAt: timestamp({ withTimezone: true }).notNull().defaultNow(),
    revokedAt: timestamp({ withTimezone: true }),
  },
  (t) => [
    uniqueIndex('integration_keys_key_hash_uq').on(t.keyHash),
    index('integration_keys_agent_idx').on(t.agentId),
    index('integration_keys_created_by_idx').on(t.createdByStaffId),
  ],
);
