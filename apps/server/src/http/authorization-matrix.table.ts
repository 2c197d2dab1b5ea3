import type { Permission, Role } from '@pos/domain';

/*
 * THE AUTHORIZATION MATRIX'S EXPECTED TABLE (issue 19 part 1, decision 132) — the reviewed spec of who may call
 * which server endpoint. One entry per registered route (`METHOD /url` exactly as Fastify registers it; HEAD
 * routes follow their GET). `authorization-matrix.test.ts` calls every route as every identity (no token,
 * malformed, released and expired tokens, a make-token session, one staff user of each role, a distributor
 * login) and checks the answer against what the entry implies:
 *
 * - PUBLIC: no session (the link token or credential in the path/body is the caller's proof). Never answers
 *   403 session_invalid; the token pages' isolation is proven in `public-token-isolation.test.ts`.
 * - SESSION: any live session — staff, distributor login or make-token.
 * - STAFF: a live staff session (the handler refuses distributor logins and make-token sessions).
 * - perms(a, b…): a live session holding any one of the privileges (spec §6 one-of); distributor and make-token
 *   sessions hold their role's privileges (Distributor / RDC: create_distributor_orders).
 * - roles(R…): a live STAFF session whose role is one of R (the Admin tools).
 * - `.staffOnly()` / `.body(…)` / `.query(…)`: a handler-level rule on top of the guard (the body or query reaches
 *   the handler's own check past validation).
 *
 * Allowed = any answer other than 401/403 (a 400 or a 404 still proves the guard let the caller through). Scope
 * rules that hide a record (another agent's order → 404) are the business of `modules/orders/order-access.test.ts`
 * and `public-token-isolation.test.ts`, not of this table. A 5xx is always a failure.
 *
 * A new route: add `'METHOD /url': perms(...)` (or SESSION, STAFF, roles(...), PUBLIC) here, in its module's group.
 */

export interface Access {
  readonly kind: 'public' | 'session';
  /** Only staff sessions (not distributor logins or make-token sessions). */
  readonly staff: boolean;
  /** A staff role of these (staff sessions only). */
  readonly roles?: readonly Role[];
  /** Any one of these privileges. */
  readonly anyOf?: readonly Permission[];
  /** A body that gets past validation to the handler's own check. */
  readonly payload?: unknown;
  /** A query string (without `?`) that gets past validation. */
  readonly search?: string;
  /** The handler answers a deliberate 500 test_error once past the guard. */
  readonly deliberateError?: boolean;
}

class Rule implements Access {
  constructor(
    readonly kind: 'public' | 'session',
    readonly staff: boolean,
    readonly roles?: readonly Role[],
    readonly anyOf?: readonly Permission[],
    readonly payload?: unknown,
    readonly search?: string,
    readonly deliberateError?: boolean,
  ) {}
  /** The handler refuses sessions that are not staff. */
  staffOnly(): Rule {
    return new Rule(this.kind, true, this.roles, this.anyOf, this.payload, this.search, this.deliberateError);
  }
  /** Call with this body (so that validation lets the call reach the handler's own rule). */
  body(payload: unknown): Rule {
    return new Rule(this.kind, this.staff, this.roles, this.anyOf, payload, this.search, this.deliberateError);
  }
  /** The route's answer past the guard is a deliberate 500 test_error. */
  answersTestError(): Rule {
    return new Rule(this.kind, this.staff, this.roles, this.anyOf, this.payload, this.search, true);
  }
  /** Call with this query string. */
  query(search: string): Rule {
    return new Rule(this.kind, this.staff, this.roles, this.anyOf, this.payload, search, this.deliberateError);
  }
}

export const PUBLIC = new Rule('public', false);
export const SESSION = new Rule('session', false);
export const STAFF = new Rule('session', true);
export const perms = (...anyOf: Permission[]) => new Rule('session', false, undefined, anyOf);
export const roles = (...anyOf: Role[]) => new Rule('session', true, anyOf);

/** The routes that name order ids. */
const ORDERS = perms('search_orders_view', 'search_orders_edit', 'create_distributor_orders');
const ORDERS_EDIT = perms('search_orders_edit', 'create_distributor_orders');
const CUSTOMER_READ = perms('customer_details_view', 'customer_details_edit');
const CUSTOMER_EDIT = perms('customer_details_edit');
const ADMIN = roles('Admin');
const AGENT_EDITORS = roles('Admin', 'RAM', 'IS');
const NEW_AGENT = {
  name: 'Matrix Agent',
  email: 'matrix-agent@example.com',
  type: 'Distributor',
  sales_channel: 'Distributor',
};

export const AUTHORIZATION_MATRIX: Readonly<Record<string, Access>> = {
  'GET /api/health': PUBLIC,
  'GET /api/auth/config': PUBLIC,
  'POST /api/auth/authenticate': PUBLIC,
  'GET /api/auth/validate/:token': SESSION,
  'GET /api/auth/logout/:token': SESSION,
  'GET /api/auth/:x/gettoken': PUBLIC,
  'GET /api/auth/permission/:token': SESSION,
  // Looking up another staff user (or changing a role) is for Admins; anyone may look up their own record.
  'PUT /api/auth/getIdOrUpdateLoginRolePrivilegeEmail/:token': ADMIN.body({ email: 'matrix-admin@example.com' }),
  // Whether an e-mail is an agent's (and its id): agent editors only (issue 27).
  'POST /api/customers/agents/checkemail/:token': AGENT_EDITORS.body({ email: 'matrix-agent@example.com' }),
  'POST /api/auth/integrationkeys/:token': ADMIN,
  'DELETE /api/auth/integrationkeys/:id/:token': ADMIN,
  'POST /api/auth/distributor/login': PUBLIC,
  'POST /api/auth/distributor/password/forgot': PUBLIC,
  'POST /api/auth/distributor/password/reset': PUBLIC,
  'GET /.well-known/openid-configuration': PUBLIC,
  'GET /oidc/jwks.json': PUBLIC,
  'GET /oidc/authorize': PUBLIC,
  'POST /api/dev/idtoken': PUBLIC,
  'GET /api/currencies/:token': SESSION,
  'GET /api/customers/paymentinstruments/list/bank/:token': SESSION,
  'GET /api/customers/billingitems/:token/all': SESSION,
  'GET /api/customers/billingitemcategories/:token': SESSION,
  'GET /api/products/:token/all': SESSION,
  'GET /api/products/terminals/:token/all': SESSION,
  'GET /api/bundles/:token/all': SESSION,
  'GET /api/bundles/billingitempriceoptions/:token': SESSION,
  'GET /api/customers/promotions/:code/:token': SESSION,
  'GET /api/customers/referrals/:refId/:token': SESSION,
  'POST /api/customers/taxes/fetch/:token': SESSION,
  'GET /api/admin/catalogue/billingitems/:token': ADMIN,
  'POST /api/admin/catalogue/billingitems/:token': ADMIN,
  'PUT /api/admin/catalogue/billingitems/:id/:token': ADMIN,
  'POST /api/admin/catalogue/categories/:token': ADMIN,
  'PUT /api/admin/catalogue/categories/:id/:token': ADMIN,
  'GET /api/admin/catalogue/bundles/:token': ADMIN,
  'POST /api/admin/catalogue/bundles/:token': ADMIN,
  'PUT /api/admin/catalogue/bundles/:id/:token': ADMIN,
  'POST /api/admin/catalogue/bundles/:id/options/:token': ADMIN,
  'PUT /api/admin/catalogue/bundles/:id/options/:optionId/:token': ADMIN,
  'GET /api/admin/catalogue/products/:token': ADMIN,
  'POST /api/admin/catalogue/products/:token': ADMIN,
  'PUT /api/admin/catalogue/products/:id/:token': ADMIN,
  'GET /api/admin/catalogue/domaindata/:token': ADMIN,
  'POST /api/admin/catalogue/domaindata/:token': ADMIN,
  'PUT /api/admin/catalogue/domaindata/:id/:token': ADMIN,
  'POST /api/customers/paymentinstruments/check/addimage/:token': CUSTOMER_EDIT,
  'POST /api/customers/paymentinstruments/achcad/addimage/:token': CUSTOMER_EDIT,
  // Any session: the owner rule answers (decision 140) — readable exactly when the record it belongs to is (with a
  // privilege that reads that kind of record), an unattached upload by its uploader only; anything else 404.
  'GET /api/uploads/:id/:token': SESSION,
  'POST /api/customers/transactions/sns/:token': perms('failed_payments_edit', 'collect_payment'),
  'POST /api/customers/retirecustomerterminals/sns/:token': CUSTOMER_EDIT,
  'POST /api/customers/customerpaymentplans/sns/:token': CUSTOMER_EDIT,
  'POST /api/customers/customerpaymentplans/recurring/sns/:token': CUSTOMER_EDIT,
  'POST /api/customers/invoices/collect/due/sns/:token': perms('collect_payment', 'failed_payments_edit'),
  'POST /api/customers/paymentcollection/sns/:token': perms('collect_payment', 'failed_payments_edit'),
  'POST /api/storeinfo/sns/:token': CUSTOMER_EDIT,
  'POST /api/customers/notifications/updatepayment/:token': perms(
    'customer_details_edit',
    'failed_payments_edit',
    'collect_payment',
  ),
  'POST /api/customers/paymentinstruments/add/:token': perms(
    'customer_details_edit',
    'failed_payments_edit',
    'collect_payment',
  ),
  'POST /api/pos/feature/modify/email/:token': perms('customer_features_edit', 'customer_features_limited'),
  'POST /api/customers/stores/:token/:storeId/pushlicense': perms(
    'customer_details_edit',
    'customer_features_edit',
    'customer_features_limited',
  ),
  'POST /api/orderinfo/status/sns/:token': perms('search_orders_edit'),
  'POST /api/orderinfo/agentswitch/sns/:token': perms('search_orders_edit'),
  'POST /api/zoho/accessoriesorder/:token': perms('customer_features_edit', 'customer_features_limited'),
  'POST /api/zoho/storemidvalidate/:token': perms('customer_details_edit', 'search_orders_edit'),
  'GET /api/crm/leads/:leadId/:token': perms('create_distributor_orders'),
  'GET /api/jobs/:jobId/:token': STAFF,
  'GET /api/admin/mail/:token': ADMIN,
  'GET /api/admin/mail/:id/:token': ADMIN,
  'GET /api/admin/jobs/:token': ADMIN,
  'POST /api/admin/jobs/:queue/run/:token': ADMIN,
  'POST /api/admin/jobs/:queue/:id/retry/:token': ADMIN,
  'POST /api/admin/jobs/:queue/:id/cancel/:token': ADMIN,
  'GET /api/admin/taxes/:token': ADMIN,
  'POST /api/admin/taxes/:token': ADMIN,
  // Issue 31 item 2: staff accounts (decision 157). Role and privilege changes go through the auth PUT above.
  'GET /api/admin/staff/:token': ADMIN,
  'GET /api/admin/staff/roles-privileges/:token': ADMIN,
  'GET /api/admin/staff/:id/:token': ADMIN,
  'POST /api/admin/staff/:id/deactivate/:token': ADMIN,
  'POST /api/admin/staff/:id/reactivate/:token': ADMIN,
  'GET /api/taxcertificates/:token': CUSTOMER_READ,
  'POST /api/taxcertificates/upload/:token': CUSTOMER_EDIT,
  'POST /api/taxcertificates/:token': CUSTOMER_EDIT,
  'POST /api/taxcertificates/:certificateId/revoke/:token': CUSTOMER_EDIT,
  // Issue 31 item 1: a store's files (decision 160) — read by the store's readers, uploaded by its editors and the
  // order flow's reps, deleted by its editors.
  'POST /api/stores/:storeId/files/:token': perms(
    'customer_details_edit',
    'search_orders_edit',
    'create_distributor_orders',
  ),
  'GET /api/stores/:storeId/files/:token': perms(
    'search_orders_view',
    'search_orders_edit',
    'create_distributor_orders',
    'customer_details_view',
    'customer_details_edit',
  ),
  'GET /api/stores/:storeId/files/:fileId/:token': perms(
    'search_orders_view',
    'search_orders_edit',
    'create_distributor_orders',
    'customer_details_view',
    'customer_details_edit',
  ),
  'DELETE /api/stores/:storeId/files/:fileId/:token': CUSTOMER_EDIT,
  // A new merchant's store files on its order until Complete gives them the new store (decision 160): uploaded and
  // read as a store's, removed by the order's editors.
  'POST /api/orders/:orderId/files/:token': perms(
    'customer_details_edit',
    'search_orders_edit',
    'create_distributor_orders',
  ),
  'GET /api/orders/:orderId/files/:token': perms(
    'search_orders_view',
    'search_orders_edit',
    'create_distributor_orders',
    'customer_details_view',
    'customer_details_edit',
  ),
  'GET /api/orders/:orderId/files/:fileId/:token': perms(
    'search_orders_view',
    'search_orders_edit',
    'create_distributor_orders',
    'customer_details_view',
    'customer_details_edit',
  ),
  'DELETE /api/orders/:orderId/files/:fileId/:token': ORDERS_EDIT,
  'GET /api/customers/:token/all': CUSTOMER_READ,
  'GET /api/customers/:token': CUSTOMER_READ,
  'GET /api/customers/:id/:token': CUSTOMER_READ,
  'GET /api/customers/:id/:token/customerorders': CUSTOMER_READ,
  'GET /api/customers/:id/:token/customernotes': CUSTOMER_READ,
  'POST /api/customers/:id/:token/customernotes': CUSTOMER_EDIT,
  'GET /api/customers/:id/customerstores/:token': CUSTOMER_READ,
  'POST /api/customers/:id/customerstores/address/:token': CUSTOMER_EDIT,
  'GET /api/customers/stores/:storeId/:token/emails': CUSTOMER_READ,
  'PUT /api/storeinfo/:id/:token': CUSTOMER_EDIT,
  'PUT /api/customerinfo/:id/:token': CUSTOMER_EDIT,
  'GET /api/salesperson/:id/:token': CUSTOMER_READ,
  'GET /api/saleshistory/:id/:token': CUSTOMER_READ,
  'GET /api/customers/:id/audit/:token': CUSTOMER_READ,
  'GET /api/domaindata/:token': SESSION,
  'GET /api/customers/:id/:token/customerterminals': CUSTOMER_READ,
  'PUT /api/customers/:id/:token/customerterminals/:terminalId': CUSTOMER_EDIT,
  'DELETE /api/customers/:token/customerterminals/:terminalId': CUSTOMER_EDIT,
  'GET /api/customers/:token/terminals/validate/:a/:b': CUSTOMER_READ,
  'GET /api/customers/:id/:token/customerpaymentplans': CUSTOMER_READ,
  'GET /api/customers/:id/:token/customerpaymentplans/:planId': CUSTOMER_READ,
  'POST /api/customers/:id/:token/customerpaymentplans': CUSTOMER_EDIT,
  'POST /api/customers/:id/:token/customerpaymentplans/:planId': CUSTOMER_EDIT,
  'PUT /api/customers/:id/:token/customerpaymentplans/:planId': CUSTOMER_EDIT,
  'GET /api/customers/:id/:token/customerbillingitems': CUSTOMER_READ,
  'POST /api/customers/:id/:token/customerbillingitems': CUSTOMER_EDIT,
  'GET /api/customers/:id/:token/features': perms(
    'customer_details_view',
    'customer_details_edit',
    'customer_features_edit',
    'customer_features_limited',
  ),
  'PUT /api/customers/:id/:token/features': perms('customer_features_edit', 'customer_features_limited'),
  'GET /api/customers/:id/customerbundles/:token': CUSTOMER_READ,
  'GET /api/customers/:id/:token/orderpromotions': CUSTOMER_READ,
  'GET /api/customers/:id/:token/transactions': perms(
    'customer_details_view',
    'customer_details_edit',
    'failed_payments_edit',
  ),
  'POST /api/customers/:id/:token/transactions/:txId': CUSTOMER_EDIT,
  'GET /api/customers/:id/:token/customerinvoices': CUSTOMER_READ,
  'GET /api/customers/:id/:token/creditinvoices': CUSTOMER_READ,
  'GET /api/customers/:id/:token/customerinvoices/:invoiceId': CUSTOMER_READ,
  'POST /api/customers/:id/:token/customerinvoices/:invoiceId/reverse': CUSTOMER_EDIT,
  'GET /api/customers/paymentinstruments/gateway/:token': SESSION,
  'GET /api/customers/:id/:token/paymentinstruments': CUSTOMER_READ,
  'GET /api/customers/:id/:token/paymentinstruments/:instrumentId': perms(
    'customer_details_view',
    'customer_details_edit',
  ),
  'POST /api/customers/:id/:token/paymentinstruments': CUSTOMER_EDIT,
  'PUT /api/customers/:id/:token/paymentinstruments/:instrumentId': CUSTOMER_EDIT,
  'DELETE /api/customers/:id/:token/paymentinstruments/:instrumentId': CUSTOMER_EDIT,
  'GET /api/customers/paymentinstruments/expiring/:token': CUSTOMER_READ,
  'POST /gateway-local/v1/tokens': PUBLIC,
  'GET /api/billing/ledger-check/:token': ADMIN,
  'GET /api/accounting/trial-balance/:token': perms('ar_approvals').query('month=2026-11&currency=USD'),
  'GET /api/accounting/general-ledger/:token': perms('ar_approvals').query(
    'from=2026-11-01&to=2026-11-30&currency=USD',
  ),
  'GET /api/invoices/:token': perms('invoices'),
  'GET /api/invoices/:invoiceId/:token': perms('invoices'),
  'GET /api/invoices/:invoiceId/pdf/:token': perms('invoices'),
  'POST /api/invoices/:invoiceId/email/:token': perms('invoices'),
  'GET /api/payments/failed/:token': perms('failed_payments_edit'),
  'GET /api/payments/recovery/:token': perms('failed_payments_edit'),
  'GET /api/breathoflife/:token': perms('breath_of_life'),
  'GET /api/breathoflife/:storeId/:token': perms('breath_of_life'),
  'POST /api/breathoflife/:storeId/activities/:token': perms('breath_of_life'),
  'POST /api/breathoflife/:storeId/offer/:token': perms('breath_of_life'),
  'POST /api/breathoflife/:storeId/outcome/:token': perms('breath_of_life'),
  'POST /api/breathoflife/:storeId/reactivate/:token': perms('breath_of_life'),
  'GET /api/reports/orders/:token': perms('reports_edit'),
  'GET /api/reports/orders/list/:token': perms('reports_edit'),
  'GET /api/reports/sales/:token': perms('reports_edit'),
  'GET /api/reports/sales/reps/:id/:token': perms('reports_edit'),
  'GET /api/reports/sales/reps/:id/customers/:token': perms('reports_edit'),
  'GET /api/receipts/:token': perms('receipts'),
  'POST /api/receipts/checkimage/:token': perms('receipts'),
  'POST /api/receipts/:token': perms('receipts'),
  'GET /api/receipts/:receiptId/:token': perms('receipts', 'apply_receipt'),
  'POST /api/receipts/:receiptId/applications/:token': perms('apply_receipt'),
  'DELETE /api/receipts/:receiptId/applications/:allocationId/:token': perms('apply_receipt'),
  'GET /api/reports/customer-listing/:token': perms('reports_edit'),
  'GET /api/reports/customer-listing/options/:token': perms('reports_edit'),
  'GET /api/returns/eligible/:token': perms('customer_details_view', 'customer_details_edit', 'ar_approvals'),
  'GET /api/returns/:token': perms('customer_details_view', 'customer_details_edit', 'ar_approvals'),
  'POST /api/returns/:token': perms('customer_details_view', 'customer_details_edit', 'ar_approvals'),
  'GET /api/returns/:id/:token': perms('customer_details_view', 'customer_details_edit', 'ar_approvals'),
  // The guard lets AR in to reject; receiving and inspecting need customer_details_edit (the service's rule).
  'POST /api/returns/:id/status/:token': CUSTOMER_EDIT.body({ action: 'receive', version: 1 }),
  'POST /api/returns/:id/refund/:token': perms('ar_approvals'),
  'POST /api/memos/:token': perms('invoices', 'ar_approvals'),
  'GET /api/memos/:token': perms('invoices', 'ar_approvals'),
  'POST /api/memos/:memoId/decision/:token': perms('ar_approvals'),
  'POST /api/writeoffs/:token': perms('invoices', 'ar_approvals'),
  'GET /api/writeoffs/:token': perms('invoices', 'ar_approvals'),
  'POST /api/writeoffs/:writeOffId/decision/:token': perms('ar_approvals'),
  'GET /api/approvals/:token': perms('ar_approvals'),
  'POST /api/approvals/decisions/:token': perms('ar_approvals'),
  'GET /api/customers/orderstatus/:token': perms(
    'search_orders_view',
    'search_orders_edit',
    'create_distributor_orders',
  ),
  'GET /api/customers/orderstatus/history/:orderId/:token': perms(
    'search_orders_view',
    'search_orders_edit',
    'create_distributor_orders',
  ),
  'GET /api/customers/ordernotes/:orderId/:token': perms(
    'search_orders_view',
    'search_orders_edit',
    'create_distributor_orders',
  ),
  'POST /api/customers/ordernotes/:orderId/:token': ORDERS_EDIT,
  'PUT /api/customers/ordernotes/:token': ORDERS_EDIT,
  'GET /api/customers/orderinfo/:token': ORDERS,
  'GET /api/customers/orderinfo/pending/:token': perms(
    'search_orders_view',
    'search_orders_edit',
    'create_distributor_orders',
  ),
  'POST /api/customers/orderinfo/:orderInfoId/:token': ORDERS_EDIT,
  // Decision 142: an order's existing-customer match — read by the order's readers (the customer only for unscoped
  // staff), decided by staff with customer_details_edit (the handler refuses agent-scoped sessions).
  'GET /api/customers/orderinfo/:orderId/customermatch/:token': ORDERS,
  'POST /api/customers/orderinfo/:orderId/customermatch/:token': CUSTOMER_EDIT.staffOnly(),
  // Answers a deliberate 500 test_error to whoever passes the guard.
  'GET /api/customers/:token/error/test': ORDERS.answersTestError(),
  'GET /api/customers/orders/search/:token': perms(
    'search_orders_view',
    'search_orders_edit',
    'create_distributor_orders',
  ),
  'GET /api/customers/orders/:orderId/:token': perms(
    'search_orders_view',
    'search_orders_edit',
    'create_distributor_orders',
  ),
  'GET /api/customers/getagents/:token': ORDERS,
  'GET /api/customers/agentorders/:orderId/:token': ORDERS,
  'POST /api/customers/agentorders/:token/add': perms('search_orders_edit'),
  'PUT /api/customers/agentorders/:token/updateagentid': perms('search_orders_edit'),
  'DELETE /api/customers/agentorders/:token/delete': perms('search_orders_edit'),
  // Agent reads: any session, scoped to its agent tree (others 404). Writes: staff Admin, RAM or IS.
  'GET /api/agents/:token': SESSION,
  'GET /api/agents/:agentId/:token': SESSION,
  'GET /api/agents/:agentId/:token/stores': SESSION,
  'POST /api/agents/:token': AGENT_EDITORS.body(NEW_AGENT),
  'PUT /api/agents/:agentId/:token': AGENT_EDITORS.body({ ...NEW_AGENT, version: 999 }),
  'POST /api/agents/:agentId/:token/deactivate': AGENT_EDITORS.body({ version: 999 }),
  'POST /api/agents/:agentId/:token/invite': AGENT_EDITORS,
  'GET /api/promotions/:token': perms('promotions_view', 'promotions_edit'),
  'POST /api/promotions/:token': perms('promotions_edit'),
  'PUT /api/promotions/:id/:token': perms('promotions_edit'),
  'POST /api/promotions/:id/expire/:token': perms('promotions_edit'),
  'GET /api/promotions/:id/orders/:token': perms('promotions_view', 'promotions_edit'),
  'POST /api/paymentauthorizations/:token': perms('create_distributor_orders', 'search_orders_edit'),
  'GET /api/paymentauthorizations/orders/:orderId/:token': ORDERS,
  'POST /api/paymentauthorizations/orders/:orderId/:token': ORDERS_EDIT,
  'GET /api/public/contracts/:tok': PUBLIC,
  'GET /api/public/contracts/:tok/pdf': PUBLIC,
  'POST /api/public/contracts/:tok/sign': PUBLIC,
  'GET /api/public/contracts/reauthorize/:tok': PUBLIC,
  'POST /api/public/contracts/reauthorize/:tok': PUBLIC,
  'GET /api/customers/contracts/:orderId/:token': ORDERS_EDIT,
  'GET /api/customers/contracts/:orderId/:contractId/pdf/:token': perms(
    'search_orders_edit',
    'create_distributor_orders',
  ),
  'POST /api/customers/contracts/:orderId/send/:token': ORDERS_EDIT,
  'POST /api/customers/contracts/:orderId/upload/:token': ORDERS_EDIT,
  'GET /api/public/payment/:tok': PUBLIC,
  'POST /api/public/payment/:tok': PUBLIC,
  'POST /api/public/payment/:tok/method': PUBLIC,
  'GET /api/public/payment/instrument/:tok': PUBLIC,
  'POST /api/public/payment/instrument/:tok': PUBLIC,
  'GET /api/customers/paymentcollection/:paymentPlanId/:token': perms('collect_payment'),
  'POST /api/customers/paymentcollection/:paymentPlanId/card/:token': perms('collect_payment'),
  'POST /api/customers/:id/:token/featurechanges': perms('customer_features_edit', 'customer_features_limited'),
  'GET /api/customers/:id/:token/featurechanges': perms(
    'customer_details_view',
    'customer_details_edit',
    'customer_features_edit',
    'customer_features_limited',
  ),
  'POST /api/customers/:id/:token/featurechanges/:changeId/cancel': perms(
    'customer_features_edit',
    'customer_features_limited',
  ),
  'GET /api/public/features/:tok': PUBLIC,
  'POST /api/public/features/:tok': PUBLIC,
  'POST /api/customers/orderinfo/:orderId/onboard/:token': ADMIN,
  'GET /api/search/:token': perms(
    'customer_details_view',
    'customer_details_edit',
    'search_orders_view',
    'search_orders_edit',
    'create_distributor_orders',
  ),
  'POST /api/billing/runs/:token': ADMIN,
  'GET /api/billing/runs/:token': ADMIN,
  'GET /api/billing/runs/:runId/:token': ADMIN,
  // Reconciliation with the gateway's books (issue 28 item 4, decision 146): AR's work, and Admin's.
  'GET /api/reconciliation/runs/:token': roles('Admin', 'AR Team'),
  'GET /api/reconciliation/runs/:runId/:token': roles('Admin', 'AR Team'),
  'POST /api/reconciliation/runs/:token': roles('Admin', 'AR Team').body({ day: '2026-11-01', currency: 'USD' }),
  'GET /api/reports/aging/:token': perms('reports_edit'),
  'GET /api/reports/aging/invoices/:token': perms('reports_edit'),
  'GET /api/reports/revenue/:token': perms('reports_edit'),
  'GET /api/reports/failed-payments/:token': perms('reports_edit'),
  'GET /api/openapi.json': PUBLIC,
  // The single-page app: index.html and its files (503 where the web app is not built; `GET /*` is registered only
  // when apps/web/dist exists, as after `npm run build`).
  'GET /': PUBLIC,
  'GET /*': PUBLIC,
};
