import { ROLE, routePath } from '@pos/domain';
import { Anchor, Box, Button, Group, Image, Text } from '@mantine/core';
import { Link, useLocation, useNavigate } from 'react-router';
import { MilestoneBar } from '../components/milestone-bar';
import { useSignOut } from '../features/auth/api/sign-out';
import { useHeaderState } from '../lib/header-state';
import { useSession } from '../lib/session';
import classes from './header.module.css';

const OWN_SIGN_IN_PATHS: readonly string[] = [routePath('login'), routePath('distributor')];

const asset = (name: string) => `${import.meta.env.BASE_URL}${name}`;

/**
 * Spec §2 header: logo → order list, a sign-in button, Signout (only for a session that is not a
 * distributor "make token" session), the Canadian flag for country CA, and the milestone bar when one is current.
 * Beyond the spec: for an Admin session, an 'Admin' navigation with Mailbox and Job monitor (issue 5).
 */
export function AppHeader() {
  const { session, token, isDistributorToken } = useSession();
  const { country, milestone } = useHeaderState();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const signOutMutation = useSignOut();

  // One "Sign in" button per screen: the staff and the distributor sign-in pages have their own.
  const showSignIn = !token && !OWN_SIGN_IN_PATHS.includes(pathname);
  const showSignOut = Boolean(token) && !isDistributorToken;
  // The admin tools (issue 5); the route guard and the server check the role as well.
  const showAdmin = session?.role === ROLE.ADMIN && !isDistributorToken;

  return (
    <Box component="header" className={classes.header}>
      <Group justify="space-between" wrap="nowrap" h={56} px="md">
        <Group gap="sm" wrap="nowrap">
          <Anchor component={Link} to="/order" underline="never" className={classes.logo}>
            <img src={asset('favicon.svg')} alt="" width={32} height={32} />
            <Text component="span" fw={700} size="lg">
              POS Back Office
            </Text>
          </Anchor>
          {country === 'CA' && <Image src={asset('flag-ca.svg')} alt="Canada" w={36} h={18} fit="contain" />}
        </Group>
        <Group gap="sm" wrap="nowrap">
          {showAdmin && (
            <Box component="nav" aria-label="Admin" mr="sm">
              <Group gap="md" wrap="nowrap">
                <Text component="span" size="xs" tt="uppercase" fw={700} c="dimmed" aria-hidden="true">
                  Admin
                </Text>
                <Anchor component={Link} to={routePath('adminMailbox')} size="sm">
                  Mailbox
                </Anchor>
                <Anchor component={Link} to={routePath('adminJobs')} size="sm">
                  Job monitor
                </Anchor>
              </Group>
            </Box>
          )}
          {showSignIn && (
            <Button variant="light" onClick={() => navigate('/login')}>
              Sign in
            </Button>
          )}
          {showSignOut && (
            <Button variant="default" loading={signOutMutation.isPending} onClick={() => signOutMutation.mutate()}>
              Signout
            </Button>
          )}
        </Group>
      </Group>
      {milestone && milestone.current >= 0 && <MilestoneBar progress={milestone} />}
    </Box>
  );
}
