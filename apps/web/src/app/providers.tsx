import { MantineProvider } from '@mantine/core';
import { useNotifications } from '@mantine/notifications';
import { QueryClientProvider, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useState, type ReactNode } from 'react';
import { createQueryClient } from './query-client';
import { cssVariablesResolver, theme } from './theme';

export interface ProvidersProps {
  readonly children: ReactNode;
  /** Tests pass their own client; the app creates one. */
  readonly queryClient?: QueryClient;
}

/** The notifications' drawing (transitions, portal) loads with the first notification, not with the sign-in page. */
const Notifications = lazy(() => import('./notifications-view').then((m) => ({ default: m.Notifications })));

function LazyNotifications() {
  const { notifications, queue } = useNotifications();
  const [wanted, setWanted] = useState(false);
  // Once there is something to show, stay mounted (so later notifications and their exits animate as before).
  if (!wanted && notifications.length + queue.length > 0) setWanted(true);
  return wanted ? (
    <Suspense fallback={null}>
      <Notifications position="top-right" limit={4} />
    </Suspense>
  ) : null;
}

export function Providers({ children, queryClient }: ProvidersProps) {
  const [client] = useState(() => queryClient ?? createQueryClient());
  return (
    <MantineProvider theme={theme} cssVariablesResolver={cssVariablesResolver} defaultColorScheme="light">
      <LazyNotifications />
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </MantineProvider>
  );
}
