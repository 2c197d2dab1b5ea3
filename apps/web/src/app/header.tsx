import { routePath } from '@pos/domain';
import { Anchor, Box, Button, Group, Image, Text, VisuallyHidden } from '@mantine/core';
import type { ReactNode } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { MilestoneBar } from '../components/milestone-bar';
import { useSignOut } from '../features/auth/api/sign-out';
import { useHeaderState } from '../lib/header-state';
import { useSession } from '../lib/session';
import classes from './header.module.css';

const OWN_SIGN_IN_PATHS: readonly string[] = [routePath('login'), routePath('distributor')];

export const APP_NAME = 'POS Back Office';

const asset = (name: string) => `${import.meta.env.BASE_URL}${name}`;

/** Height of the header's top row; the milestone bar adds MILESTONE_BAR_HEIGHT below it. */
export const HEADER_HEIGHT = 56;
export const MILESTONE_BAR_HEIGHT = 45;

export interface HeaderBarProps {
  /** Before the logo (the shell's navigation toggle). */
  readonly start?: ReactNode;
  /** Before the sign-in / Signout buttons (the shell's search button). */
  readonly end?: ReactNode;
}

/** Whether the header shows the milestone bar (so the shell can make room for it). */
export function useHeaderHasMilestone(): boolean {
  const { milestone } = useHeaderState();
  return milestone !== null && milestone.current >= 0;
}

/**
 * Spec §2 header: logo → order list, who is signed in and as what, a sign-in button, Signout (only for a session that
 * is not a distributor "make token" session), the Canadian flag for country CA, and the milestone bar when one is current. The staff
 * navigation (Mailbox, Job monitor and every other screen) is the shell's left navigation (decision 106).
 */
export function HeaderBar({ start, end }: HeaderBarProps) {
  const { token, isDistributorToken, session } = useSession();
  const { country, milestone } = useHeaderState();
  const hasMilestone = useHeaderHasMilestone();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const signOutMutation = useSignOut();

  // One "Sign in" button per screen: the staff and the distributor sign-in pages have their own.
  const showSignIn = !token && !OWN_SIGN_IN_PATHS.includes(pathname);
  const showSignOut = Boolean(token) && !isDistributorToken;

  return (
    <>
      <Group justify="space-between" wrap="nowrap" h={HEADER_HEIGHT} px="md">
        <Group gap="sm" wrap="nowrap">
          {start}
          <Anchor component={Link} to="/order" underline="never" className={classes.logo} aria-label={APP_NAME}>
            <img src={asset('favicon.svg')} alt="" width={32} height={32} />
            {/* On a phone the logo alone: the header's buttons need the room. */}
            <Text component="span" fw={700} size="lg" visibleFrom="xs" style={{ whiteSpace: 'nowrap' }}>
              {APP_NAME}
            </Text>
          </Anchor>
          {country === 'CA' && <Image src={asset('flag-ca.svg')} alt="Canada" w={36} h={18} fit="contain" />}
        </Group>
        <Group gap="sm" wrap="nowrap">
          {end}
          {token && session && (session.name || session.email) && (
            // Who is signed in, and as what (issue 30): the name (else the e-mail) and the role; on a phone the
            // header keeps its buttons.
            <Text size="sm" visibleFrom="sm" title={session.email} style={{ whiteSpace: 'nowrap' }}>
              <VisuallyHidden>Signed in as </VisuallyHidden>
              {session.name || session.email}
              {session.role && (
                <Text component="span" size="sm" c="dimmed">
                  {' · '}
                  {session.role}
                </Text>
              )}
            </Text>
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
      {hasMilestone && milestone && <MilestoneBar progress={milestone} />}
    </>
  );
}

/** The header of the bare frame (sign-in pages, merchant pages, signed out): sticky at the top. */
export function AppHeader() {
  return (
    <Box component="header" className={classes.header}>
      <HeaderBar />
    </Box>
  );
}
