import {
  roleLookupInfo,
  staffAccount,
  staffList,
  staffRolesPrivileges,
  type StaffAccount,
  type StaffList,
  type StaffRolesPrivileges,
} from '@pos/domain';
import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../lib/api';
import { datedFileName } from '../../../lib/download';
import { streamDownload, type StreamProgress } from '../../../lib/stream-download';

/*
 * Admin → Staff (#/admin/staff; issue 31 item 2, decision 157; contracts in @pos/domain/contracts/staff.ts):
 *   GET  /api/admin/staff/{token}?q&role_id&active&sort&limit&offset[&format=csv]   the list (CSV: every row)
 *   GET  /api/admin/staff/{id}/{token}                                              one account
 *   GET  /api/admin/staff/roles-privileges/{token}                                  the roles and the privileges
 *   POST /api/admin/staff/{id}/deactivate/{token}, …/reactivate/{token}
 *   PUT  /api/auth/getIdOrUpdateLoginRolePrivilegeEmail/{token}  {email, role_id} | {email, login_role_privilege_id}
 *        (spec §7: the one call that changes a role or the extra privileges; it ends the person's sessions)
 * Every mutation hook refreshes the staff views itself.
 */

export const STAFF_PAGE_SIZE = 25;

/** The list's filters as kept in the address (#/admin/staff?q=…&role=…&active=…); '' for any. */
export interface StaffFilters {
  /** Any part of a name or an e-mail address. */
  readonly q: string;
  /** A role id, as text. */
  readonly role: string;
  /** 'true' (active), 'false' (deactivated) or ''. */
  readonly active: string;
}

export const NO_STAFF_FILTERS: StaffFilters = { q: '', role: '', active: '' };

export interface StaffListParams extends StaffFilters {
  /** 1-based. */
  readonly page: number;
  /** 'email', '-last_sign_in_at'…; null: by name. */
  readonly sort: string | null;
}

export const staffKeys = {
  all: ['staff'] as const,
  list: (p: StaffListParams) => [...staffKeys.all, 'list', p] as const,
  account: (id: number) => [...staffKeys.all, 'account', id] as const,
  rolesPrivileges: () => [...staffKeys.all, 'roles-privileges'] as const,
};

function filterQuery(p: StaffListParams) {
  return {
    q: p.q.trim() || undefined,
    role_id: p.role || undefined,
    active: p.active || undefined,
    sort: p.sort ?? undefined,
  };
}

export async function listStaff(p: StaffListParams, signal?: AbortSignal): Promise<StaffList> {
  const info = await api.get<unknown>('/api/admin/staff/{token}', {
    query: { ...filterQuery(p), limit: STAFF_PAGE_SIZE, offset: (p.page - 1) * STAFF_PAGE_SIZE },
    signal,
  });
  return staffList.parse(info);
}

export function getStaffListQueryOptions(p: StaffListParams) {
  return queryOptions({
    queryKey: staffKeys.list(p),
    queryFn: ({ signal }) => listStaff(p, signal),
    placeholderData: keepPreviousData,
  });
}

/** Every matching account as CSV (the server streams all rows), saved with rows-so-far progress; Cancel aborts. */
export function exportStaff(
  p: StaffListParams,
  options: { signal?: AbortSignal; onProgress?: (progress: StreamProgress) => void } = {},
): Promise<StreamProgress> {
  return streamDownload({
    path: '/api/admin/staff/{token}',
    query: { ...filterQuery(p), format: 'csv' },
    fileName: datedFileName('staff', 'csv'),
    ...options,
  });
}

export async function getStaffAccount(id: number, signal?: AbortSignal): Promise<StaffAccount> {
  return staffAccount.parse(await api.get<unknown>('/api/admin/staff/{id}/{token}', { params: { id }, signal }));
}

export function getStaffAccountQueryOptions(id: number) {
  return queryOptions({ queryKey: staffKeys.account(id), queryFn: ({ signal }) => getStaffAccount(id, signal) });
}

export async function getRolesPrivileges(signal?: AbortSignal): Promise<StaffRolesPrivileges> {
  return staffRolesPrivileges.parse(await api.get<unknown>('/api/admin/staff/roles-privileges/{token}', { signal }));
}

export function getRolesPrivilegesQueryOptions() {
  return queryOptions({
    queryKey: staffKeys.rolesPrivileges(),
    queryFn: ({ signal }) => getRolesPrivileges(signal),
    staleTime: 5 * 60_000,
  });
}

export type RoleLookupInfo = z.infer<typeof roleLookupInfo>;

async function updateRolePrivileges(body: {
  email: string;
  role_id?: number;
  login_role_privilege_id?: number[];
}): Promise<RoleLookupInfo> {
  return roleLookupInfo.parse(await api.put<unknown>('/api/auth/getIdOrUpdateLoginRolePrivilegeEmail/{token}', body));
}

async function setActive(id: number, active: boolean): Promise<StaffAccount> {
  const path = active ? '/api/admin/staff/{id}/reactivate/{token}' : '/api/admin/staff/{id}/deactivate/{token}';
  return staffAccount.parse(await api.post<unknown>(path, undefined, { params: { id } }));
}

/** After any change to an account: the list and the open account are read again. */
function useRefreshStaff() {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: staffKeys.all });
}

/** A new role for a staff member (the PUT of spec §7); their sessions end, the next sign-in carries it. */
export function useChangeStaffRole() {
  const refresh = useRefreshStaff();
  return useMutation({
    mutationFn: ({ email, roleId }: { email: string; roleId: number }) =>
      updateRolePrivileges({ email, role_id: roleId }),
    meta: { silentError: true },
    onSuccess: refresh,
  });
}

/** The extra privileges a staff member holds beyond their role's, replaced by these ids (grant and revoke). */
export function useSetStaffPrivileges() {
  const refresh = useRefreshStaff();
  return useMutation({
    mutationFn: ({ email, privilegeIds }: { email: string; privilegeIds: number[] }) =>
      updateRolePrivileges({ email, login_role_privilege_id: privilegeIds }),
    meta: { silentError: true },
    onSuccess: refresh,
  });
}

/** Deactivate an account: it cannot sign in, its sessions end. */
export function useDeactivateStaff() {
  const refresh = useRefreshStaff();
  return useMutation({
    mutationFn: (id: number) => setActive(id, false),
    meta: { silentError: true },
    onSuccess: refresh,
  });
}

/** Reactivate an account: it may sign in again. */
export function useReactivateStaff() {
  const refresh = useRefreshStaff();
  return useMutation({
    mutationFn: (id: number) => setActive(id, true),
    meta: { silentError: true },
    onSuccess: refresh,
  });
}
