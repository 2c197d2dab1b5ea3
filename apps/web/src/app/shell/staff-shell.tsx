import { AppShell, Burger, ScrollArea, useMantineTheme } from '@mantine/core';
import { useDisclosure, useMediaQuery } from '@mantine/hooks';
import { searchKindsFor } from '@pos/domain';
import type { ReactNode } from 'react';
import { GlobalSearch } from '../search/global-search';
import { HEADER_HEIGHT, HeaderBar, MILESTONE_BAR_HEIGHT, useHeaderHasMilestone } from '../header';
import { MainNavigation, type HasScreen } from './main-navigation';
import { useShellPermissions } from './shell-permissions';
import { useScrollToTopOnNavigate } from '../../lib/smooth-scroll';

const NAVBAR_ID = 'main-navigation';

export interface StaffShellProps {
  readonly hasScreen: HasScreen;
  readonly children: ReactNode;
}

/**
 * The application shell of a signed-in user's screens (decision 106): the header with a navigation toggle and the
 * global search, the left navigation, and the page. Below the `sm` breakpoint the navigation is closed until the
 * burger opens it (and closes again once a screen is chosen); above it, it is open until the burger hides it. A
 * hidden navigation is inert, so the keyboard never lands on links that are off screen.
 */
export function StaffShell({ hasScreen, children }: StaffShellProps) {
  const theme = useMantineTheme();
  const small = useMediaQuery(`(max-width: ${theme.breakpoints.sm})`);
  const [mobileOpen, mobile] = useDisclosure(false);
  const [desktopOpen, desktop] = useDisclosure(true);
  const open = small ? mobileOpen : desktopOpen;
  const hasMilestone = useHeaderHasMilestone();
  const { data: granted } = useShellPermissions();
  const searchKinds = granted ? searchKindsFor(granted) : [];
  const top = useScrollToTopOnNavigate<HTMLDivElement>(HEADER_HEIGHT + (hasMilestone ? MILESTONE_BAR_HEIGHT : 0));

  return (
    <AppShell
      header={{ height: HEADER_HEIGHT + (hasMilestone ? MILESTONE_BAR_HEIGHT : 0) }}
      navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !mobileOpen, desktop: !desktopOpen } }}
      padding="md"
    >
      <AppShell.Header>
        <HeaderBar
          start={
            <Burger
              opened={open}
              onClick={small ? mobile.toggle : desktop.toggle}
              size="sm"
              aria-label="Navigation"
              aria-expanded={open}
              aria-controls={NAVBAR_ID}
            />
          }
          end={searchKinds.length > 0 && <GlobalSearch kinds={searchKinds} />}
        />
      </AppShell.Header>
      <AppShell.Navbar id={NAVBAR_ID} aria-label="Main" p="xs" inert={!open}>
        <AppShell.Section grow component={ScrollArea}>
          <MainNavigation hasScreen={hasScreen} onNavigate={small ? mobile.close : undefined} />
        </AppShell.Section>
      </AppShell.Navbar>
      <AppShell.Main>
        <div ref={top} aria-hidden="true" />
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
