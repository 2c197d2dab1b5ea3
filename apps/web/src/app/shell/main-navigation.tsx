import { Box, Button, NavLink, Skeleton, Stack, Text } from '@mantine/core';
import { navigationFor, type NavSection, type RouteId } from '@pos/domain';
import { Link, useLocation } from 'react-router';
import { useSession } from '../../lib/session';
import { useShellPermissions } from './shell-permissions';

/** Which routes have a screen in this build (the router's page map): a new screen shows up by itself. */
export type HasScreen = (id: RouteId) => boolean;

/**
 * The staff navigation's sections for the signed-in user: the domain's route table, the page map and the one
 * permission answer of the shell (decision 106). The /order rule of a make-token session and the admin tools'
 * role rule are the route guard's own (`mayOpenRoute`).
 */
function useNavigationSections(hasScreen: HasScreen) {
  const { session, isDistributorToken } = useSession();
  const permissions = useShellPermissions();
  const sections: NavSection[] | undefined =
    session && permissions.data
      ? navigationFor(
          {
            granted: permissions.data,
            role: session.role,
            // The session info does not say "distributor login"; such a login's role is never Admin (decision 106).
            staff: !isDistributorToken,
            distributorToken: isDistributorToken,
          },
          hasScreen,
        )
      : undefined;
  return { sections, permissions };
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
  const { sections, permissions } = useNavigationSections(hasScreen);

  if (permissions.isError) {
    return (
      <Stack gap="xs" p="sm">
        <Text size="sm">The navigation could not be loaded.</Text>
        <Button size="xs" variant="light" onClick={() => void permissions.refetch()}>
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
