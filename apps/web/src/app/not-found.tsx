import { Anchor, Stack, Text, Title } from '@mantine/core';
import { Link, Navigate, useLocation } from 'react-router';
import { useSession } from '../lib/session';

/**
 * An unknown path (issue 30): signed out, the spec's rule — to '' and so to the sign-in page; signed in, a "not found"
 * page inside the app, so a mistyped or stale link does not look like being signed out.
 */
export function UnknownPath() {
  const { token } = useSession();
  const { pathname } = useLocation();
  if (!token) return <Navigate to="/" replace />;
  return (
    <Stack component="section" maw={560} gap="sm" aria-labelledby="not-found-title">
      <Title order={1} id="not-found-title">
        Page not found
      </Title>
      <Text>There is no page at #{pathname} — the link may be mistyped or out of date.</Text>
      <Text>
        Go to the{' '}
        <Anchor component={Link} to="/order">
          order list
        </Anchor>{' '}
        or{' '}
        <Anchor component={Link} to="/customer">
          find a customer
        </Anchor>
        , or use the navigation.
      </Text>
    </Stack>
  );
}
