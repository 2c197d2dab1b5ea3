import { GLOBAL_SEARCH_PRIVILEGES, NAV_PRIVILEGES, type Permission } from '@pos/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { checkPermissions } from '../../api/permissions';
import { useSession } from '../../lib/session';

/** Everything the shell decides from privileges: the navigation entries and the kinds the global search covers. */
export const SHELL_PRIVILEGES: readonly Permission[] = [...new Set([...NAV_PRIVILEGES, ...GLOBAL_SEARCH_PRIVILEGES])];

export const shellKeys = {
  all: ['shell'] as const,
  /** Per session token: a new sign-in asks again. */
  permissions: (token: string | null) => [...shellKeys.all, 'permissions', token] as const,
};

/**
 * ONE permission call for the whole shell (GET /api/auth/permission/{token}?privileges=…, spec §6), cached for the
 * session: a session's privileges are fixed when it starts, so the answer never goes stale.
 */
export function getShellPermissionsQueryOptions(token: string | null) {
  return queryOptions({
    queryKey: shellKeys.permissions(token),
    queryFn: async () => {
      const flags = await checkPermissions(SHELL_PRIVILEGES);
      return SHELL_PRIVILEGES.filter((p) => flags[p] === true);
    },
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
