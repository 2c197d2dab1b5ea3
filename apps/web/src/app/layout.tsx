import { Box } from '@mantine/core';
import { routePath } from '@pos/domain';
import { useCallback, useEffect } from 'react';
import { Outlet, useLocation, useMatches, useNavigation } from 'react-router';
import { SessionTimeoutDialog } from '../components/session-timeout-dialog';
import { GlobalSpinner } from '../components/spinner';
import { UpdateBanner } from '../components/update-banner';
import { useSignOut } from '../features/auth/api/sign-out';
import { useUpdateCountdown } from '../lib/app-update';
import { useInactivity } from '../lib/inactivity';
import { useSession } from '../lib/session';
import { AppHeader } from './header';

/** Spec §4: the inactivity timer never runs on these pages. */
const NO_INACTIVITY_PATHS: readonly string[] = [routePath('login'), routePath('distributor')];

export const APP_NAME = 'POS Back Office';

/** What router.tsx puts in each page route's `handle`. */
export interface RouteHandle {
  readonly title: string;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as { title?: unknown }).title === 'string';
}

/**
 * The frame around every page: the update banner, header, main content, the global spinner, the
 * inactivity overlay (signed in, not on /login or /distributor) and the document title.
 */
export function Layout() {
  const navigation = useNavigation();
  const { pathname } = useLocation();
  const { token } = useSession();
  const { mutate: signOut } = useSignOut();
  const onTimeout = useCallback(() => signOut(), [signOut]);
  const inactivity = useInactivity({ enabled: token !== null && !NO_INACTIVITY_PATHS.includes(pathname), onTimeout });
  const updateSecondsLeft = useUpdateCountdown();
  const title = useMatches()
    .map((m) => m.handle)
    .filter(isRouteHandle)
    .at(-1)?.title;

  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);

  return (
    <>
      <UpdateBanner secondsLeft={updateSecondsLeft} />
      <AppHeader />
      <Box component="main" p="md">
        <Outlet />
      </Box>
      <GlobalSpinner busy={navigation.state !== 'idle'} />
      <SessionTimeoutDialog secondsLeft={inactivity.secondsLeft} onExtend={inactivity.extend} />
    </>
  );
}
