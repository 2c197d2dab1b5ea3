import { Box, Button, NavLink, Skeleton, Stack, Text } from '@mantine/core';
import { navigationFor, type NavSection, type RouteId } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { Link, useLocation } from 'react-router';
import { getValidatedSessionQueryOptions } from '../../features/auth/api/validate';
import { useSession } from '../../lib/session';
import { useShellPermissions } from './shell-permissions';

/** Which routes have a screen in this build (the router's page map): a new screen shows up by itself. */
export type HasScreen = (id: RouteId) => boolean;

/**
 * The navigation's sections for the signed-in user: the domain's route table, the page map, the one permission answer
 * of the shell and the session's validation answer (decision 106). Every entry is one the route guard lets this
 * session through — the same predicate (`mayOpenRoute`) on the same facts the guard reads: the granted privileges,
 * the role, and whether the session is staff's, a distributor login's or a make-token session's (issue 30,
 * decision 154).
 */
function useNavigationSections(hasScreen: HasScreen) {
  const { token } = useSession();
  const permissions = useShellPermissions();
  const validated = useQuery(getValidatedSessionQueryOptions(token));
  const sections: NavSection[] | undefined =
    permissions.data && validated.data
      ? navigationFor(
          {
            granted: permissions.data,
            role: validated.data.role,
            staff: validated.data.kind === 'staff',
            distributorToken: validated.data.maketoken,
          },
          hasScreen,
        )
      : undefined;
  const failed = permissions.isError || validated.isError;
  const retry = () => {
    if (permissions.isError) void permissions.refetch();
    if (validated.isError) void validated.refetch();
  };
  return { sections, failed, retry };
}

const groupId = (group: string) => `nav-group-${group.toLowerCase().replace(/[^a-z]+/g, '-')}`;

export interface MainNavigationProps {
  readonly hasScreen: HasScreen;
  /** Called when an entry is chosen (the shell closes the navigation on small screens). */
  readonly onNavigate?: () => void;
}

/**
 * The left navigation's content: one group per area (Orders, Customers, Billing & AR, Catalogue, Reports,
 * Admin) with a link per screen this user may open; the current screen is marked (aria-current="page").
 */
export function MainNavigation({ hasScreen, onNavigate }: MainNavigationProps) {
  const { pathname } = useLocation();
  const { sections, failed, retry } = useNavigationSections(hasScreen);

  if (failed) {
    return (
      <Stack gap="xs" p="sm">
        <Text size="sm">The navigation could not be loaded.</Text>
        <Button size="xs" variant="light" onClick={retry}>
          Try again
        </Button>
      </Stack>
    );
  }
  if (!sections) {
    return (
      <Stack gap="xs" p="sm" role="status" aria-busy="true" aria-label="Loading the navigation">
        {[1, 2, 3].map((n) => (
          <Skeleton key={n} h={28} />
        ))}
      </Stack>
    );
  }
  if (sections.length === 0) {
    return (
      <Text size="sm" c="dimmed" p="sm">
        No screens to open with your privileges.
      </Text>
    );
  }
  return (
    <Stack gap="md">
      {sections.map(({ group, entries }) => (
        <Box key={group} role="group" aria-labelledby={groupId(group)}>
          <Text id={groupId(group)} size="xs" fw={700} tt="uppercase" c="dimmed" px="sm" pb={4}>
            {group}
          </Text>
          {entries.map((entry) => {
            const current = pathname === entry.path;
            return (
              <NavLink
                key={entry.id}
                component={Link}
                to={entry.path}
                label={entry.label}
                active={current}
                aria-current={current ? 'page' : undefined}
                onClick={onNavigate}
              />
            );
          })}
        </Box>
      ))}
    </Stack>
  );
}
