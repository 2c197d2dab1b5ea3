import { assertNever } from '../util/assert-never';
import { hasAnyPermission, type Permission } from './permissions';
import { NAV_GROUPS, ROUTE_DEFS, type NavGroup, type RouteDef, type RouteGuard, type RouteId } from './routes';

/** What decides whether a signed-in user may open a route (spec §4 route guard, §6 permissions). */
export interface RouteAccessFacts {
  /** The privileges the permission call granted (any others count as refused). */
  readonly granted: Iterable<string>;
  /** The session's role. */
  readonly role: string;
  /** A staff session (not a distributor login, not a distributor "make token" session). */
  readonly staff: boolean;
  /** A distributor "make token" session: exactly /order is closed to it (spec §4). */
  readonly distributorToken: boolean;
}

/**
 * Whether a route's guard lets a signed-in user through: public and session-only routes always; a permission
 * list when any one is granted (§6); a role list for a staff session with one of those roles (admin tools).
 * The /order rule for a make-token session is `mayOpenRoute`'s, since it depends on the path, not the guard.
 */
export function guardAllows(guard: RouteGuard, facts: Omit<RouteAccessFacts, 'distributorToken'>): boolean {
  switch (guard.kind) {
    case 'none':
    case 'session':
      return true;
    case 'permissions':
      return hasAnyPermission(facts.granted, guard.anyOf);
    case 'roles':
      return facts.staff && (guard.anyOf as readonly string[]).includes(facts.role);
    default:
      return assertNever(guard);
  }
}

/** The route guard's answer for a signed-in user, as a predicate: the guard, and /order closed to a make-token session. */
export function mayOpenRoute(route: RouteDef, facts: RouteAccessFacts): boolean {
  if (facts.distributorToken && route.id === 'order') return false;
  return guardAllows(route.guard, facts);
}

export interface NavEntry {
  readonly id: RouteId;
  /** The path to link to, with its leading slash ('/order'). */
  readonly path: string;
  readonly label: string;
}

export interface NavSection {
  readonly group: NavGroup;
  readonly entries: readonly NavEntry[];
}

type NavRoute = RouteDef & { readonly id: RouteId; readonly nav: NonNullable<RouteDef['nav']> };

/** The routes that are navigation entries, in the route table's order. */
export const NAV_ROUTES: readonly NavRoute[] = ROUTE_DEFS.filter((r): r is NavRoute => r.nav !== undefined);

/**
 * Every privilege a navigation entry's guard names: the web asks the permission call once for all of them
 * (spec §6: the server answers for a named set) and decides every entry from that one answer.
 */
export const NAV_PRIVILEGES: readonly Permission[] = [
  ...new Set(NAV_ROUTES.flatMap((r) => (r.guard.kind === 'permissions' ? r.guard.anyOf : []))),
];

/**
 * The staff navigation (decision 106): the groups in NAV_GROUPS order, each with the entries that have a screen
 * (`hasScreen`, the web app's page map) and that this user may open; groups left empty are left out.
 */
export function navigationFor(facts: RouteAccessFacts, hasScreen: (id: RouteId) => boolean): NavSection[] {
  const open = NAV_ROUTES.filter((r) => hasScreen(r.id) && mayOpenRoute(r, facts));
  return NAV_GROUPS.map((group) => ({
    group,
    entries: open
      .filter((r) => r.nav.group === group)
      .map((r) => ({ id: r.id, path: `/${r.path}`, label: r.nav.label ?? r.title })),
  })).filter((section) => section.entries.length > 0);
}
