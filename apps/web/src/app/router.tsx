import { ROUTES, type RouteId } from '@pos/domain';
import type { ComponentType } from 'react';
import { createHashRouter, Navigate, redirect, type RouteObject } from 'react-router';
import { Spinner } from '../components/spinner';
import { Layout, UNKNOWN_PATH_ROUTE_ID, type RouteHandle } from './layout';
import { UnknownPath } from './not-found';
import { RequireGuard } from './require-guard';
import { RouteError } from './route-error';

export interface PageModule {
  readonly default: ComponentType;
}

export type PageMap = Partial<Record<RouteId, () => Promise<PageModule>>>;

const newOrderPage = () => import('../features/order-flow/pages/new-order-page');
const additionalItemsPage = () => import('../features/order-flow/pages/additional-items-page');
const distributorPasswordReset = () => import('../features/auth/pages/distributor-password-reset-page');

/** Every page is loaded on demand (spec §2). */
export const pages: PageMap = {
  login: () => import('../features/auth/pages/login-page'),
  distributor: () => import('../features/auth/pages/distributor-login-page'),
  distributorPasswordReset,
  distributorPasswordResetAlt: distributorPasswordReset,
  adminMailbox: () => import('../features/admin/pages/mailbox-page'),
  adminJobs: () => import('../features/admin/pages/job-monitor-page'),
  adminBilling: () => import('../features/admin/pages/billing-runs-page'),
  adminCatalogue: () => import('../features/catalogue/pages/catalogue-page'),
  adminTaxes: () => import('../features/admin/pages/tax-rates-page'),
  adminStaff: () => import('../features/staff/pages/staff-page'),
  adminReconciliation: () => import('../features/reconciliation/pages/reconciliation-page'),
  arizona: () => import('../features/arizona/pages/arizona-page'),
  customer: () => import('../features/customers/pages/customer-page'),
  breathOfLife: () => import('../features/breath-of-life/pages/breath-of-life-page'),
  editPayment: () => import('../features/customers/pages/edit-payment-page'),
  editPaymentPlan: () => import('../features/customers/pages/edit-payment-plan-page'),
  editPlan: () => import('../features/customers/pages/edit-plan-page'),
  paymentInstruments: () => import('../features/customers/pages/payment-instruments-page'),
  order: () => import('../features/orders/pages/order-list-page'),
  viewInvoices: () => import('../features/invoices/pages/invoices-page'),
  payments: () => import('../features/payments/pages/failed-payments-page'),
  promotions: () => import('../features/promotions/pages/promotions-page'),
  reports: () => import('../features/reports/pages/reports-page'),
  customerListing: () => import('../features/customer-listing/pages/customer-listing-page'),
  viewReceipts: () => import('../features/receipts/pages/receipts-page'),
  applyReceipt: () => import('../features/receipts/pages/apply-receipt-page'),
  returnsRefund: () => import('../features/returns/pages/start-return-page'),
  viewReturns: () => import('../features/returns/pages/returns-list-page'),
  refund: () => import('../features/returns/pages/refund-page'),
  approvals: () => import('../features/approvals/pages/approvals-page'),
  accounting: () => import('../features/accounting/pages/accounting-page'),
  viewAgents: () => import('../features/agents/pages/agents-page'),
  viewAgentStores: () => import('../features/agents/pages/agent-stores-page'),
  newAgent: () => import('../features/agents/pages/agent-form-page'),
  lookups: () => import('../features/lookups/pages/lookups-page'),
  salesPerson: () => import('../features/reports/pages/sales-person-page'),
  newOrder: newOrderPage,
  newOrderForCustomer: newOrderPage,
  newOrderForStore: newOrderPage,
  storeInfo: () => import('../features/order-flow/pages/store-info-page'),
  saleSummary: () => import('../features/order-flow/pages/sale-summary-page'),
  paymentPlanMethod: () => import('../features/order-flow/pages/payment-plan-method-page'),
  charges: () => import('../features/order-flow/pages/charges-page'),
  summary: () => import('../features/order-flow/pages/summary-page'),
  contract: () => import('../features/contracts/pages/contract-page'),
  contractReauthorize: () => import('../features/contracts/pages/contract-reauthorize-page'),
  confirmation: () => import('../features/contracts/pages/confirmation-page'),
  uploadContract: () => import('../features/contracts/pages/upload-contract-page'),
  customerPayment: () => import('../features/merchant-payments/pages/merchant-payment-page'),
  customerPaymentInstrument: () => import('../features/merchant-payments/pages/merchant-instrument-page'),
  customerPaymentCollection: () => import('../features/merchant-payments/pages/payment-collection-page'),
  customerFeatures: () => import('../features/merchant-features/pages/merchant-features-page'),
  additionalItems: additionalItemsPage,
  additionalItemsOrder: additionalItemsPage,
};

/**
 * Routes from the domain route table: a layout route (header) around one guard route per table entry;
 * '' redirects to /login and any unknown path to '' (so it ends at /login) — for a signed-in user an unknown path shows
 * "Page not found" inside the app instead (issue 30).
 *
 * Every table path runs its guard (session, validation, make-token rule, permissions) — the guard is
 * behaviour of the path, not of its screen. A path whose screen is not built yet (`pageMap` has no entry)
 * then follows the unknown-path rule; no placeholder page is shown (docs/decisions/020).
 */
export function buildRoutes(pageMap: PageMap = pages): RouteObject[] {
  const pageRoutes: RouteObject[] = [];
  for (const def of ROUTES) {
    if (def.path === '') continue;
    const load = pageMap[def.id];
    const handle: RouteHandle = { title: def.title };
    const guard = def.guard;
    pageRoutes.push({
      element: <RequireGuard />,
      loader:
        guard.kind === 'none'
          ? undefined
          : async ({ request }) => {
              const url = new URL(request.url);
              // The guard's calls (validate, permissions) and their contracts load with the first guarded route,
              // not with the sign-in page (issue 13: the first route's JS).
              const { checkRouteAccess } = await import('./route-access');
              const access = await checkRouteAccess(guard, `${url.pathname}${url.search}`);
              return access === 'login' ? redirect('/login') : access;
            },
      // A list's filters, sort, page and open row live in the address (issue 30): a change of the query alone is the
      // same screen for the same session, so the guard (validate + permissions) is not asked again for it.
      shouldRevalidate: ({ currentUrl, nextUrl, defaultShouldRevalidate }) =>
        currentUrl.pathname === nextUrl.pathname && guard.kind !== 'none' ? false : defaultShouldRevalidate,
      children: [
        load
          ? { id: def.id, path: def.path, handle, lazy: async () => ({ Component: (await load()).default }) }
          : { id: def.id, path: def.path, handle, element: <Navigate to="/" replace /> },
      ],
    });
  }
  return [
    {
      element: <Layout hasScreen={(id) => pageMap[id] !== undefined} />,
      errorElement: <RouteError />,
      hydrateFallbackElement: <Spinner busy />,
      children: [
        { index: true, element: <Navigate to="/login" replace /> },
        ...pageRoutes,
        {
          id: UNKNOWN_PATH_ROUTE_ID,
          path: '*',
          element: <UnknownPath />,
          handle: { title: 'Page not found' } satisfies RouteHandle,
        },
      ],
    },
  ];
}

export function createAppRouter(pageMap: PageMap = pages) {
  return createHashRouter(buildRoutes(pageMap));
}
