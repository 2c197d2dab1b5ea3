import { ROUTES, type RouteId } from '@pos/domain';
import type { ComponentType } from 'react';
import { createHashRouter, Navigate, type RouteObject } from 'react-router';
import { Spinner } from '../components/spinner';
import { Layout, type RouteHandle } from './layout';
import { RequireGuard } from './require-guard';
import { RouteError } from './route-error';

export interface PageModule {
  readonly default: ComponentType;
}

export type PageMap = Partial<Record<RouteId, () => Promise<PageModule>>>;

/** Every page is loaded on demand (spec §2). Only routes listed here are registered. */
export const pages: PageMap = {
  login: () => import('../features/auth/pages/login-page'),
};

/**
 * Routes from the domain route table: a layout route (header) around one guarded child per page in
 * `pageMap`; '' redirects to /login and any unknown path to '' (so it ends at /login).
 */
export function buildRoutes(pageMap: PageMap = pages): RouteObject[] {
  const pageRoutes: RouteObject[] = [];
  for (const def of ROUTES) {
    const load = pageMap[def.id];
    if (!load || def.path === '') continue;
    const handle: RouteHandle = { title: def.title };
    pageRoutes.push({
      element: <RequireGuard guard={def.guard} />,
      children: [
        {
          id: def.id,
          path: def.path,
          handle,
          lazy: async () => ({ Component: (await load()).default }),
        },
      ],
    });
  }
  return [
    {
      element: <Layout />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <Spinner busy />,
      children: [
        { index: true, element: <Navigate to="/login" replace /> },
        ...pageRoutes,
        { path: '*', element: <Navigate to="/" replace /> },
      ],
    },
  ];
}

export function createAppRouter(pageMap: PageMap = pages) {
  return createHashRouter(buildRoutes(pageMap));
}
