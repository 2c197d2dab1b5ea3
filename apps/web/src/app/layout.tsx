import { Box } from '@mantine/core';
import { ROUTE_DEFS, routePath } from '@pos/domain';
import { lazy, Suspense, useCallback, useEffect } from 'react';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router';
import { GlobalSpinner } from '../components/spinner';
import { UpdateBanner } from '../components/update-banner';
import { useSignOut } from '../features/auth/api/sign-out';
import { useUpdateCountdown } from '../lib/app-update';
import { useInactivity } from '../lib/inactivity';
import { useSession } from '../lib/session';
import { APP_NAME, AppHeader } from './header';
import type { HasScreen } from './shell/main-navigation';

/** The inactivity dialog (a modal) is needed only once signed in. */
const SessionTimeoutDialog = lazy(() =>
  import('../components/session-timeout-dialog').then((m) => ({ default: m.SessionTimeoutDialog })),
);
/** The signed-in shell (navigation, global search) loads after sign-in, not with the sign-in page (issue 13). */
const StaffShell = lazy(() => import('./shell/staff-shell').then((m) => ({ default: m.StaffShell })));

/** Spec §4: the inactivity timer never runs on these pages. */
const NO_INACTIVITY_PATHS: readonly string[] = [routePath('login'), routePath('distributor')];

/** What router.tsx puts in each page route's `handle`. */
export interface RouteHandle {
  readonly title: string;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as { title?: unknown }).title === 'string';
}

/** The id of the router's catch-all route (router.tsx). */
export const UNKNOWN_PATH_ROUTE_ID = 'unknown-path';

export interface LayoutProps {
  /** Which routes have a screen (the router's page map): the navigation lists only those. */
  readonly hasScreen: HasScreen;
}

/**
 * The frame around every page: the update banner, header, main content, the global spinner, the
 * inactivity overlay (signed in, not on /login or /distributor) and the document title. A signed-in user's
 * screens get the application shell (left navigation, global search); the sign-in pages, the merchant's token
 * pages (route `frame: 'bare'`) and everything without a session keep the bare frame (decision 106).
 */
export function Layout({ hasScreen }: LayoutProps) {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const { token } = useSession();
  const { mutate: signOut } = useSignOut();
  const onTimeout = useCallback(() => signOut(), [signOut]);
  const inactivity = useInactivity({ enabled: token !== null && !NO_INACTIVITY_PATHS.includes(pathname), onTimeout });
  const updateSecondsLeft = useUpdateCountdown();
  const matches = useMatches();
  const title = matches
    .map((m) => m.handle)
    .filter(isRouteHandle)
    .at(-1)?.title;
  const routeId = matches.at(-1)?.id;
  const route = ROUTE_DEFS.find((r) => r.id === routeId);
  // A path whose screen is not built yet only passes through on its way to the sign-in page (decision 020).
  // An unknown path while signed in ("Page not found", issue 30) keeps the shell, so the navigation is at hand.
  const unknownPath = routeId === UNKNOWN_PATH_ROUTE_ID;
  const withShell =
    token !== null && (unknownPath || (route !== undefined && route.frame !== 'bare' && hasScreen(route.id)));

  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);

  return (
    <>
      {withShell ? (
        <Suspense fallback={<GlobalSpinner busy />}>
          <StaffShell hasScreen={hasScreen}>
            <UpdateBanner secondsLeft={updateSecondsLeft} />
            <Outlet />
          </StaffShell>
        </Suspense>
      ) : (
        <>
          <UpdateBanner secondsLeft={updateSecondsLeft} />
          <AppHeader />
          <Box component="main" p="md">
            <Outlet />
          </Box>
        </>
      )}
      <GlobalSpinner busy={navigation.state !== 'idle'} />
      {token !== null && (
        <Suspense fallback={null}>
          <SessionTimeoutDialog secondsLeft={inactivity.secondsLeft} onExtend={inactivity.extend} />
        </Suspense>
      )}
    </>
  );
}
