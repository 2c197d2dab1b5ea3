import { Stack, Text, Title } from '@mantine/core';
import { Outlet, useLoaderData } from 'react-router';
import type { RouteAccess } from './route-access';

/** Shown in place of a page the guard refused (a missing permission, or /order for a distributor token). */
export function AccessDenied() {
  return (
    <Stack component="section" p="xl" maw={560} aria-labelledby="access-denied-title">
      <Title order={1} size="h2" id="access-denied-title">
        Access denied
      </Title>
      <Text>Your account does not have permission to open this page. If you need it, ask an administrator.</Text>
    </Stack>
  );
}

/**
 * The element of a guarded route: its loader (`checkRouteAccess`) has already run — a 'login' outcome
 * redirected — so here the page shows, or "Access denied" does.
 */
export function RequireGuard() {
  const access = useLoaderData<RouteAccess | undefined>();
  if (access === 'denied') return <AccessDenied />;
  return <Outlet />;
}
