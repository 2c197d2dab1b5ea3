import { GLOBAL_SEARCH_PRIVILEGES, NAV_PRIVILEGES, type Permission } from '@pos/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { getPermissionsQueryOptions, type PermissionFlags } from '../../api/permissions';
import { useSession } from '../../lib/session';

/** Everything the shell decides from privileges: the navigation entries and the kinds the global search covers. */
export const SHELL_PRIVILEGES: readonly Permission[] = [...new Set([...NAV_PRIVILEGES, ...GLOBAL_SEARCH_PRIVILEGES])];

/**
 * ONE permission call for the whole shell (GET /api/auth/permission/{token}?privileges=…, spec §6): the shared
 * check of api/permissions.ts, cached for the session — a session's privileges are fixed when it starts, so the
 * answer never goes stale.
 */
export function getShellPermissionsQueryOptions(token: string | null) {
  return queryOptions({
    ...getPermissionsQueryOptions(SHELL_PRIVILEGES, token),
    select: (flags: PermissionFlags) => SHELL_PRIVILEGES.filter((p) => flags[p] === true),
    staleTime: Infinity,
    enabled: token !== null,
    // The navigation shows its own message and a retry.
    meta: { silentError: true },
  });
}

/** The privileges the shell's permission call granted (undefined while it is asked). */
export function useShellPermissions() {
  const { token } = useSession();
  return useQuery(getShellPermissionsQueryOptions(token));
}
