import { guardAllows, routePath, type RouteGuard } from '@pos/domain';
import { checkPermissions } from '../api/permissions';
import { validateSession } from '../features/auth/api/validate';
import { isApiError } from '../lib/api';
import { clearToken, getSession, setReturnUrl } from '../lib/session';

/** What the route guard decided: show the page, show "Access denied", or sign in first. */
export type RouteAccess = 'allowed' | 'denied' | 'login';

/**
 * The route guard of spec §4, for a navigation to `target` (path + query, e.g. '/neworder?zoholeadid=7'):
 * 1. public routes pass;
 * 2. the session comes from memory or session storage; without one, `target` is saved as the return URL
 *    and the user signs in;
 * 3. the token is validated (GET /api/auth/validate/{token}); when the server refuses it the token is cleared,
 *    `target` saved and the user signs in (a lost connection or a server error is shown, the session kept). The answer sets the distributor-token flag (`maketoken`);
 * 4. exactly /order is denied to a distributor-token session;
 * 5. a route with a permission list passes when the permission call grants any one of them (§6);
 * 6. a route with a role list (admin tools) passes for a staff session with one of those roles.
 */
export async function checkRouteAccess(guard: RouteGuard, target: string): Promise<RouteAccess> {
  if (guard.kind === 'none') return 'allowed';

  if (!getSession()) {
    setReturnUrl(target);
    return 'login';
  }

  let maketoken: boolean;
  let role: string;
  let kind: string;
  try {
    ({ maketoken, role, kind } = await validateSession());
  } catch (error) {
    // Only the server's refusal of the token ends the session. A lost connection, a server error — or the request
    // cut off by a reload (F5 while a list loads) — is a failure to show and retry, never a sign-out (issue 30).
    if (!isApiError(error) || error.status === 0 || error.status >= 500) throw error;
    clearToken();
    setReturnUrl(target);
    return 'login';
  }

  if (maketoken && target === routePath('order')) return 'denied';
  const staff = kind === 'staff';
  // Session-only routes, and staff tools beyond the spec's screens (a staff session whose role is listed; checked
  // on the server too): the domain's predicate, which the navigation uses as well (decision 106).
  if (guard.kind !== 'permissions') return guardAllows(guard, { granted: [], role, staff }) ? 'allowed' : 'denied';

  try {
    const flags = await checkPermissions(guard.anyOf);
    const granted = guard.anyOf.filter((p) => flags[p] === true);
    return guardAllows(guard, { granted, role, staff }) ? 'allowed' : 'denied';
  } catch (error) {
    // A 403 already ended the session (lib/api); anything else is a failure to show, not a denial.
    if (isApiError(error) && error.status === 403) return 'login';
    throw error;
  }
}
