import { validateInfo, type ValidateInfo } from '@pos/domain';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { setFlag } from '../../../lib/session';

/**
 * GET /api/auth/validate/{token}. The answer's `maketoken` sets the distributor-token flag (spec §4), which
 * hides Signout and closes exactly /order.
 */
export async function validateSession(): Promise<ValidateInfo> {
  const info = validateInfo.parse(await api.get<unknown>('/api/auth/validate/{token}'));
  setFlag('distributor_token', info.maketoken);
  return info;
}

/**
 * The same answer as a query of a session, kept for the session: what the navigation needs to decide as the route
 * guard does — the session's kind (staff, distributor login, make-token) and role (issue 30).
 */
export function getValidatedSessionQueryOptions(token: string | null) {
  return queryOptions({
    queryKey: ['auth', 'validate', token] as const,
    queryFn: validateSession,
    staleTime: Infinity,
    enabled: token !== null,
    // The navigation shows its own message and a retry.
    meta: { silentError: true },
  });
}
