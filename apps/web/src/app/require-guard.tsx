import type { RouteGuard } from '@pos/domain';
import { Navigate, Outlet } from 'react-router';

/**
 * The route guard hook point (spec §4 "Route guard").
 * Today only public ('none') routes pass; session and permission checks are not implemented yet, so any
 * guarded route fails closed to /login. The auth work replaces the second branch with: restore the
 * session, validate the token (saving the return URL on failure), then check `guard.anyOf`.
 */
export function RequireGuard({ guard }: { readonly guard: RouteGuard }) {
  if (guard.kind === 'none') return <Outlet />;
  return <Navigate to="/login" replace />;
}
