import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import '@mantine/spotlight/styles.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router';
import { Providers } from './app/providers';
import { createAppRouter } from './app/router';
import { adoptProviderAnswer } from './features/auth/lib/oidc-redirect';
import { appUpdater } from './lib/app-update';

const container = document.getElementById('root');
if (!container) throw new Error('index.html has no #root element');

// Back from the identity provider's page: its answer becomes the #/login route's query.
adoptProviderAnswer();
const router = createAppRouter();

// Spec §4 app update: only the built app has a versioned service worker.
if (import.meta.env.PROD) void appUpdater.start('serviceWorker' in navigator ? navigator.serviceWorker : undefined);

createRoot(container).render(
  <StrictMode>
    <Providers>
      <RouterProvider router={router} />
    </Providers>
  </StrictMode>,
);
