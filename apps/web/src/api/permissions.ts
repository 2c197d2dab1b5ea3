import type { Permission } from '@pos/domain';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../lib/api';
import { getToken, setFlag, type SessionFlag } from '../lib/session';
import { readSignInAnswer } from '../lib/sign-in-contracts';

/*
 * The permission check (spec §6, §7), asked by the route guard, sign-in and the customer screens:
 *   GET /api/auth/permission/{token}?privileges=a,b → {permissions: {a: true, b: false}}
 * The server checks every call again; this only decides what a screen offers.
 */

export type PermissionFlags = Readonly<Record<string, boolean>>;

/** Spec §3, §6: these answers are also kept in session storage. */
const CACHED: readonly (Permission & SessionFlag)[] = [
  'create_distributor_orders',
  'search_orders_edit',
  'customer_features_limited',
];

export const permissionKeys = {
  all: ['permissions'] as const,
  /** Per session token: another sign-in in the same tab asks again. */
  check: (token: string | null, privileges: readonly Permission[]) =>
    [...permissionKeys.all, token, [...privileges].sort()] as const,
};

/** Ask which of `privileges` the session has; keeps the cached flags (CACHED) that the answer includes. */
export async function checkPermissions(
  privileges: readonly Permission[],
  signal?: AbortSignal,
): Promise<PermissionFlags> {
  const info = await readSignInAnswer(
    api.get<unknown>('/api/auth/permission/{token}', { query: { privileges: [...privileges] }, signal }),
    (c) => c.permissionInfo,
  );
  for (const flag of CACHED) {
    const granted = info.permissions[flag];
    if (granted !== undefined) setFlag(flag, granted);
  }
  return info.permissions;
}

/** The check as a query of a session (default: the current one), kept for a minute. */
export function getPermissionsQueryOptions(privileges: readonly Permission[], token: string | null = getToken()) {
  return queryOptions({
    queryKey: permissionKeys.check(token, privileges),
    queryFn: ({ signal }) => checkPermissions(privileges, signal),
    staleTime: 60_000,
  });
}
