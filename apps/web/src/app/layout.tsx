import { Box } from '@mantine/core';
import { useEffect } from 'react';
import { Outlet, useMatches, useNavigation } from 'react-router';
import { GlobalSpinner } from '../components/spinner';
import { AppHeader } from './header';

export const APP_NAME = 'POS Back Office';

/** What router.tsx puts in each page route's `handle`. */
export interface RouteHandle {
  readonly title: string;
}

function isRouteHandle(handle: unknown): handle is RouteHandle {
  return typeof handle === 'object' && handle !== null && typeof (handle as { title?: unknown }).title === 'string';
}

/** The frame around every page: header, main content, the global spinner and the document title. */
export function Layout() {
  const navigation = useNavigation();
  const title = useMatches()
    .map((m) => m.handle)
    .filter(isRouteHandle)
    .at(-1)?.title;

  useEffect(() => {
    document.title = title ? `${title} · ${APP_NAME}` : APP_NAME;
  }, [title]);

  return (
    <>
      <AppHeader />
      <Box component="main" p="md">
        <Outlet />
      </Box>
      <GlobalSpinner busy={navigation.state !== 'idle'} />
    </>
  );
}
