import { z } from 'zod';
import { queryBooleanSchema } from './customer-accounts';
import { pagedList, paginationQuerySchema } from './common';
import { sortSchema } from './customers';

/*
 * Staff accounts (issue 31 item 2, decision 157): who works in the back office, their role, their extra privileges,
 * whether they may sign in. Admin only. Paths:
 *   GET  /api/admin/staff/{token}?q&role_id&active&sort&limit&offset[&format=csv]  → staffList (CSV: every row)
 *   GET  /api/admin/staff/roles-privileges/{token}                                 → staffRolesPrivileges
 *   GET  /api/admin/staff/{id}/{token}                                              → staffAccount
 *   POST /api/admin/staff/{id}/deactivate/{token}                                   → staffAccount (sessions ended)
 *   POST /api/admin/staff/{id}/reactivate/{token}                                   → staffAccount
 * A role or the extra privileges change through spec §7's PUT /api/auth/getIdOrUpdateLoginRolePrivilegeEmail/{token}
 * (contracts/auth.ts roleLookupRequest), never through a second call; it ends the user's sessions, so the change holds
 * from their next sign-in.
 */

export const STAFF_SORT_FIELDS = ['name', 'email', 'last_sign_in_at'] as const;
export type StaffSortField = (typeof STAFF_SORT_FIELDS)[number];
/** Search text (a name or an e-mail, any part of it) is at most this long. */
export const STAFF_TEXT_MAX = 100;

const staffId = (what: string) =>
  z.coerce
    .number({ message: `The ${what} is a number.` })
    .int({ message: `The ${what} is a whole number.` })
    .min(1, { message: `The ${what} is at least 1.` })
    .max(2_147_483_647, { message: `The ${what} is too large.` });

export const staffListQuery = paginationQuerySchema.extend({
  /** Any part of the name or of the e-mail address, case-insensitive. */
  q: z
    .string()
    .trim()
    .max(STAFF_TEXT_MAX, { message: `Search text is at most ${STAFF_TEXT_MAX} characters.` })
    .optional(),
  role_id: staffId('role id').optional(),
  /** true: only accounts that may sign in; false: only deactivated ones; left out: both. */
  active: queryBooleanSchema.optional(),
  sort: sortSchema(STAFF_SORT_FIELDS),
  format: z.enum(['json', 'csv'], { message: 'Format is json or csv.' }).default('json'),
});
export type StaffListQuery = z.infer<typeof staffListQuery>;
export type StaffListQueryInput = z.input<typeof staffListQuery>;

/** One staff account as the Staff screen shows it. */
export const staffAccount = z.object({
  id: z.number().int(),
  name: z.string(),
  email: z.string(),
  role_id: z.number().int(),
  role: z.string(),
  /** The privileges granted to this person beyond their role's (names, sorted). */
  additional_privileges: z.array(z.string()),
  active: z.boolean(),
  /** The last successful sign-in (ISO), or null: never signed in. */
  last_sign_in_at: z.string().nullable(),
  /** Works for an external agent (Distributor / RDC role): its sessions hold only the agent privileges (140). */
  agent_scoped: z.boolean(),
  agent_id: z.number().int().nullable(),
});
export type StaffAccount = z.infer<typeof staffAccount>;

export const staffList = pagedList(staffAccount);
export type StaffList = z.infer<typeof staffList>;

/** The roles (with the privileges each grants) and every privilege, for the Staff screen's form. */
export const staffRolesPrivileges = z.object({
  roles: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      privileges: z.array(z.string()),
      agent_scoped: z.boolean(),
    }),
  ),
  privileges: z.array(
    z.object({
      id: z.number().int(),
      name: z.string(),
      description: z.string().nullable(),
    }),
  ),
});
export type StaffRolesPrivileges = z.infer<typeof staffRolesPrivileges>;

export const staffIdParams = z.object({ id: staffId('staff id'), token: z.string() });

/** The CSV columns of the staff list (one row per account; privileges joined by spaces). */
export const STAFF_CSV_COLUMNS = [
  'id',
  'name',
  'email',
  'role',
  'additional_privileges',
  'active',
  'last_sign_in_at',
] as const;
