import { QueryClient } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { RouterProvider } from 'react-router';
import { onTestFinished } from 'vitest';
import { Providers } from '../app/providers';
import { createQueryClient } from '../app/query-client';
import { createAppRouter, pages, type PageMap } from '../app/router';

export interface RenderAppOptions {
  /** Use the app's own query client (global error toasts, its retry rule) instead of a bare one. */
  readonly appQueryClient?: boolean;
}

/** Render the whole app at `hash`, as the browser would load it. */
export function renderApp(hash: string, pageMap: PageMap = pages, options: RenderAppOptions = {}) {
  window.location.hash = hash;
  const router = createAppRouter(pageMap);
  const queryClient = options.appQueryClient
    ? createQueryClient()
    : new QueryClient({ defaultOptions: { queries: { retry: false } } });
  onTestFinished(() => router.dispose());
  const view = render(
    <Providers queryClient={queryClient}>
      <RouterProvider router={router} />
    </Providers>,
  );
  return { ...view, router, queryClient };
}

/** The app's pages plus `extra` (test pages standing in for screens other issues build). */
export function withPages(extra: PageMap): PageMap {
  return { ...pages, ...extra };
}
