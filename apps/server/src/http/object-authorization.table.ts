import { blankOrder } from '@pos/domain';

/*
 * THE OBJECT-LEVEL AUTHORIZATION TABLE (issue 27, decision 140) — for every registered route that takes a record id (a
 * path parameter, a query field or a field inside the body), how the suite `object-authorization.test.ts` calls it on
 * a record the caller may see and on one it may not. The route matrix (decision 132) proves who may call a route; this
 * table proves whose records the call may reach.
 *
 * Each caller kind (agent-scoped staff with every agent privilege, an RDC user, a distributor login, a make-token
 * session, unscoped staff) has a merchant of its own — `own`: a customer, a store linked to the caller's agent, an
 * order of that agent, and everything hung under them — and there is another agent's merchant — `foreign`. An entry's
 * `request` names the record under test from `target` (own or foreign) and, for a record nested under another one
 * named in the same request, the parent from `own`. The expected answer follows from the owner rules
 * (packages/domain/src/access/):
 *
 * - `owner`: the record's own rule decides — agent-scoped callers see only their own, unscoped staff see both.
 * - `parent`: the id must belong to the record named beside it (an invoice of the receipt's customer, a terminal of the
 *   return's store): another merchant's is refused for every caller, however much it may see.
 * - `requester`: a job — its requester and Admin.
 *
 * Allowed: any answer but 403/404 and never a 5xx. Refused: 404 not_found (or the `refused` status with the field
 * named), the same answer as for a record that does not exist, and nothing written (no audit entry).
 *
 * Routes that take ids of the catalogue or of the provider's own tools are listed in NOT_OWNED with the reason; routes
 * that no agent-scoped session can pass (provider-wide privileges, decision 140) in PROVIDER_WIDE — the suite checks
 * that premise too. A new id-bearing route without an entry fails the suite, naming itself.
 */

/** A merchant's records, as the suite builds them for one caller (or for another agent). */
export interface World {
  readonly agentId: number | null;
  readonly customerId: number;
  readonly federalTaxId: string;
  readonly storeId: number;
  readonly orderId: number;
  readonly unifiedOrderId: string;
  readonly orderVersion: number;
  readonly terminalId: number;
  readonly elmerId: string;
  readonly terminalVersion: number;
  readonly serialNumber: string;
  readonly planId: number;
  readonly planVersion: number;
  readonly customerBillingItemId: number;
  readonly instrumentId: number;
  readonly instrumentVersion: number;
  readonly invoiceId: number;
  readonly invoiceVersion: number;
  readonly transactionId: number;
  readonly transactionVersion: number;
  readonly returnId: number;
  readonly returnVersion: number;
  readonly certificateId: number;
  /** A store file (a picture) of the world's store (decision 160). */
  readonly storeFileId: number;
  /** A store file uploaded to the world's order, not yet the store's (a new merchant's, decision 160). */
  readonly orderFileId: number;
  readonly featureChangeId: number;
  readonly featureChangeVersion: number;
  readonly contractId: number;
  /** The public id of the contract's PDF (an upload owned by the order). */
  readonly contractUploadId: string;
  readonly receiptId: number;
  readonly receiptVersion: number;
  readonly allocationId: number;
  readonly salesPersonId: number;
  readonly referralCode: string;
  readonly agentVersion: number;
  /** A job the world's caller requested. */
  readonly jobId: string;
}

export interface ObjectCall {
  readonly own: World;
  readonly target: World;
  readonly token: string;
}

export interface ObjectRequest {
  readonly url: string;
  readonly payload?: unknown;
  readonly headers?: Record<string, string>;
}

export interface ObjectEntry {
  /** What the id under test names, for the reader and the test's title. */
  readonly names: string;
  readonly rule: 'owner' | 'parent' | 'requester';
  readonly request: (c: ObjectCall) => ObjectRequest;
  /** A refusal other than 404: 400 with this field named (e.g. an id inside an order document). */
  readonly refused?: { readonly status: 400 | 404; readonly field?: string };
  /**
   * The field that names the record under test, when the call names others too (an upload beside a store): allowed
   * means no 404 naming it, refused means a 404 naming it.
   */
  readonly field?: string;
  /** The call changes its records for good (cancels, retires, removes): fresh merchants for it. */
  readonly fresh?: boolean;
  /** A call that answers 200 for a missing record (a validation): the refusal reads exactly like a missing one. */
  readonly refusedAs?: (body: Record<string, any>) => boolean; // eslint-disable-line @typescript-eslint/no-explicit-any
}

const idem = () => ({ 'idempotency-key': `obj-${Math.random().toString(36).slice(2)}-${Date.now()}` });
const q = (params: Record<string, string | number>) =>
  '?' +
  Object.entries(params)
    .map(([k, v]) => `${k}=${encodeURIComponent(String(v))}`)
    .join('&');

/** Entries by route (`METHOD /url` as registered). */
export const OBJECT_MATRIX: Readonly<Record<string, readonly ObjectEntry[]>> = {
  // ── Catalogue reads priced for a store, referrals ────────────────────────────────────────────────────────────
  'GET /api/customers/billingitems/:token/all': [
    {
      names: 'store (custstoreid)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/billingitems/${token}/all${q({ custstoreid: target.storeId })}`,
      }),
    },
  ],
  'GET /api/customers/referrals/:refId/:token': [
    {
      names: "referral (an agent's)",
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/referrals/${target.referralCode}/${token}` }),
    },
  ],
  'POST /api/customers/taxes/fetch/:token': [
    {
      names: 'store (store_id)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/taxes/fetch/${token}`,
        payload: { store_id: target.storeId, lines: [{ billing_item_id: 8, amount_cents: 100_00, quantity: 1 }] },
      }),
    },
  ],

  // ── Notification and queue POSTs (bodies name the records) ───────────────────────────────────────────────────
  'POST /api/customers/transactions/sns/:token': [
    {
      names: "transaction (transaction_ids) of another customer than customer_id's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/transactions/sns/${token}`,
        payload: { customer_id: own.customerId, transaction_ids: [target.transactionId], action: 'stop_retries' },
      }),
    },
  ],
  'POST /api/customers/retirecustomerterminals/sns/:token': [
    {
      names: 'terminal (elmer_ids)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/retirecustomerterminals/sns/${token}`,
        payload: { elmer_ids: [target.elmerId], reason_id: RETIRE_REASON_ID.value },
      }),
    },
  ],
  'POST /api/customers/customerpaymentplans/sns/:token': [
    {
      names: 'plan (plans[].customerplanid)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/customerpaymentplans/sns/${token}`,
        payload: { plans: [{ customerplanid: target.planId, licenseExpiresOn: '2027-12-31' }] },
      }),
    },
  ],
  'POST /api/customers/customerpaymentplans/recurring/sns/:token': [
    {
      names: 'plan (plans[].customerplanid)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/customerpaymentplans/recurring/sns/${token}`,
        payload: { plans: [{ customerplanid: target.planId, recurringAmount: { cents: 89_00, currency: 'USD' } }] },
      }),
    },
  ],
  'POST /api/customers/invoices/collect/due/sns/:token': [
    {
      names: "invoice (invoice_ids) of another customer than customer_id's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/invoices/collect/due/sns/${token}`,
        payload: { customer_id: own.customerId, invoice_ids: [target.invoiceId] },
      }),
    },
  ],
  'POST /api/customers/paymentcollection/sns/:token': [
    {
      names: "invoice (invoice_ids) of another customer than customer_id's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/paymentcollection/sns/${token}`,
        payload: { customer_id: own.customerId, invoice_ids: [target.invoiceId] },
        headers: idem(),
      }),
    },
    {
      names: "payment instrument (payment_instrument_id) of another customer than customer_id's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/paymentcollection/sns/${token}`,
        payload: {
          customer_id: own.customerId,
          invoice_ids: [own.invoiceId],
          payment_instrument_id: target.instrumentId,
        },
        headers: idem(),
      }),
    },
  ],
  'POST /api/storeinfo/sns/:token': [
    {
      names: 'store (storeid)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/storeinfo/sns/${token}`,
        payload: { storeid: target.storeId, version: 1, changes: { phone: '5551234567' } },
      }),
    },
  ],
  'POST /api/customers/notifications/updatepayment/:token': [
    {
      names: 'terminal (elmer_id)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/notifications/updatepayment/${token}`,
        payload: { elmer_id: target.elmerId },
      }),
    },
  ],
  'POST /api/customers/paymentinstruments/add/:token': [
    {
      names: 'customer (customer_id)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/paymentinstruments/add/${token}`,
        payload: {
          customer_id: target.customerId,
          kind: 'card',
          nameOnAccount: 'Object Matrix',
          processorSetupIntent: 'seti_object_matrix',
          paymentProcessorReference: 'pm_object_matrix',
        },
      }),
    },
    {
      names: "store (storeid) of another customer than customer_id's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/paymentinstruments/add/${token}`,
        payload: {
          customer_id: own.customerId,
          storeid: target.storeId,
          kind: 'card',
          nameOnAccount: 'Object Matrix',
          processorSetupIntent: 'seti_object_matrix',
          paymentProcessorReference: 'pm_object_matrix',
        },
      }),
    },
  ],
  'POST /api/pos/feature/modify/email/:token': [
    {
      names: 'store (storeid)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/pos/feature/modify/email/${token}`,
        payload: { storeid: target.storeId, features: [{ billingitemid: 8, action: 'add' }] },
      }),
    },
  ],
  'POST /api/customers/stores/:token/:storeId/pushlicense': [
    {
      names: 'store',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/stores/${token}/${target.storeId}/pushlicense`,
        payload: {},
      }),
    },
  ],
  'POST /api/orderinfo/status/sns/:token': [
    {
      names: 'order (orderInfoId)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/orderinfo/status/sns/${token}`,
        payload: { orderInfoId: target.orderId, status: '2', action: 'reopen' },
      }),
    },
  ],
  'POST /api/orderinfo/agentswitch/sns/:token': [
    {
      names: 'order (orderInfoIds)',
      rule: 'owner',
      request: ({ own, target, token }) => ({
        url: `/api/orderinfo/agentswitch/sns/${token}`,
        payload: { orderInfoIds: [target.orderId], agent_id: own.agentId ?? SPARE_AGENT.value },
      }),
    },
    {
      names: 'agent (agent_id): the agent the orders move to',
      rule: 'owner',
      request: ({ own, target, token }) => ({
        url: `/api/orderinfo/agentswitch/sns/${token}`,
        payload: { orderInfoIds: [own.orderId], agent_id: target.agentId ?? SPARE_AGENT.value },
      }),
    },
  ],
  'POST /api/zoho/accessoriesorder/:token': [
    {
      names: 'store (storeid)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/zoho/accessoriesorder/${token}`,
        payload: { storeid: target.storeId, features: ['eWIC'], notes: 'Object matrix' },
      }),
    },
  ],
  'POST /api/zoho/storemidvalidate/:token': [
    {
      names: 'store (storeid)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/zoho/storemidvalidate/${token}`,
        payload: { MID: '123456789012', storeid: target.storeId },
      }),
    },
  ],
  'GET /api/uploads/:id/:token': [
    {
      names: "upload (an order's contract PDF: readable exactly when the order is)",
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/uploads/${target.contractUploadId}/${token}` }),
    },
  ],
  'POST /api/taxcertificates/:token': [
    {
      names: 'store (store_id)',
      rule: 'owner',
      field: 'store_id',
      request: ({ target, token }) => ({
        url: `/api/taxcertificates/${token}`,
        payload: {
          store_id: target.storeId,
          kind: 'TPT',
          certificate_number: 'TPT-OBJECT-2',
          expires_on: '2027-12-31',
          upload_id: 'A'.repeat(32),
        },
      }),
    },
  ],
  'GET /api/jobs/:jobId/:token': [
    {
      names: 'job (its requester and Admin)',
      rule: 'requester',
      request: ({ target, token }) => ({ url: `/api/jobs/${target.jobId}/${token}` }),
    },
  ],

  // ── Store files (decision 160): the store in the path is the owner; a file of another store is 404 too ─────────
  'POST /api/stores/:storeId/files/:token': [
    {
      names: 'store (path)',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/stores/${target.storeId}/files/${token}`, payload: {} }),
    },
  ],
  'GET /api/stores/:storeId/files/:token': [
    {
      names: 'store (path)',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/stores/${target.storeId}/files/${token}` }),
    },
  ],
  'GET /api/stores/:storeId/files/:fileId/:token': [
    {
      names: 'store file',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/stores/${target.storeId}/files/${target.storeFileId}/${token}` }),
    },
    {
      names: "store file of another store than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({ url: `/api/stores/${own.storeId}/files/${target.storeFileId}/${token}` }),
    },
  ],
  'DELETE /api/stores/:storeId/files/:fileId/:token': [
    {
      names: 'store file',
      rule: 'owner',
      fresh: true,
      request: ({ target, token }) => ({ url: `/api/stores/${target.storeId}/files/${target.storeFileId}/${token}` }),
    },
  ],

  // ── A new merchant's store files on its order (decision 160): the order in the path is the owner ─────────────
  'POST /api/orders/:orderId/files/:token': [
    {
      names: 'order (path)',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/orders/${target.orderId}/files/${token}`, payload: {} }),
    },
  ],
  'GET /api/orders/:orderId/files/:token': [
    {
      names: 'order (path)',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/orders/${target.orderId}/files/${token}` }),
    },
  ],
  'GET /api/orders/:orderId/files/:fileId/:token': [
    {
      names: "order's store file",
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/orders/${target.orderId}/files/${target.orderFileId}/${token}` }),
    },
    {
      names: "store file of another order than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({ url: `/api/orders/${own.orderId}/files/${target.orderFileId}/${token}` }),
    },
  ],
  'DELETE /api/orders/:orderId/files/:fileId/:token': [
    {
      names: "order's store file",
      rule: 'owner',
      fresh: true,
      request: ({ target, token }) => ({ url: `/api/orders/${target.orderId}/files/${target.orderFileId}/${token}` }),
    },
  ],

  // ── Tax certificates ────────────────────────────────────────────────────────────────────────────────────────
  'GET /api/taxcertificates/:token': [
    {
      names: 'store (store_id)',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/taxcertificates/${token}${q({ store_id: target.storeId })}` }),
    },
  ],
  'POST /api/taxcertificates/:certificateId/revoke/:token': [
    {
      names: 'tax certificate',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/taxcertificates/${target.certificateId}/revoke/${token}`,
        payload: {},
      }),
    },
  ],

  // ── Customers ────────────────────────────────────────────────────────────────────────────────────────────────
  'GET /api/customers/:token': [
    {
      names: 'customer (fedtaxid)',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/${token}${q({ fedtaxid: target.federalTaxId })}` }),
    },
  ],
  'GET /api/customers/:id/:token': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/${target.customerId}/${token}` }),
    },
  ],
  'GET /api/customers/:id/:token/customerorders': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/${target.customerId}/${token}/customerorders` }),
    },
    {
      names: "store (storeid) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/customerorders${q({ storeid: target.storeId })}`,
      }),
    },
  ],
  'GET /api/customers/:id/:token/customernotes': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/${target.customerId}/${token}/customernotes` }),
    },
    {
      names: "store (customer_store_id) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/customernotes${q({ customer_store_id: target.storeId })}`,
      }),
    },
  ],
  'POST /api/customers/:id/:token/customernotes': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/customernotes`,
        payload: { note: 'Object matrix note.' },
      }),
    },
    {
      names: "store (customer_store_id) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/customernotes`,
        payload: { note: 'Object matrix note.', customer_store_id: target.storeId },
      }),
    },
  ],
  'GET /api/customers/:id/customerstores/:token': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/${target.customerId}/customerstores/${token}` }),
    },
    {
      names: "store (cust_store_id) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/customerstores/${token}${q({ cust_store_id: target.storeId })}`,
      }),
    },
  ],
  'POST /api/customers/:id/customerstores/address/:token': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/customerstores/address/${token}`,
        payload: {
          address: { address1: '1 Matrix Way', city: 'Austin', state: 'TX', zip: '73301', country: 'US' },
          doing_business_as: 'Matrix Two',
          store_name: 'Matrix Two',
        },
      }),
    },
    {
      names: "store (customer_store_id) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/customerstores/address/${token}`,
        payload: {
          address: { address1: '1 Matrix Way', city: 'Austin', state: 'TX', zip: '73301', country: 'US' },
          customer_store_id: target.storeId,
          version: 1,
        },
      }),
    },
  ],
  'GET /api/customers/stores/:storeId/:token/emails': [
    {
      names: 'store',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/stores/${target.storeId}/${token}/emails` }),
    },
  ],
  'PUT /api/storeinfo/:id/:token': [
    {
      names: 'store',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/storeinfo/${target.storeId}/${token}`,
        payload: { version: 999, phone: '5551234567' },
      }),
    },
  ],
  'PUT /api/customerinfo/:id/:token': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customerinfo/${target.customerId}/${token}`,
        payload: { version: 999, phone: '5551234567' },
      }),
    },
  ],
  'GET /api/salesperson/:id/:token': [
    {
      names: "sales person (an agent's)",
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/salesperson/${target.salesPersonId}/${token}` }),
    },
  ],
  'GET /api/saleshistory/:id/:token': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/saleshistory/${target.customerId}/${token}` }),
    },
    {
      names: "store (storeid) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/saleshistory/${own.customerId}/${token}${q({ storeid: target.storeId })}`,
      }),
    },
  ],
  'GET /api/customers/:id/audit/:token': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/${target.customerId}/audit/${token}` }),
    },
  ],

  // ── A customer's accounts ───────────────────────────────────────────────────────────────────────────────────
  'GET /api/customers/:id/:token/customerterminals': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/customerterminals${q({ storeid: target.storeId })}`,
      }),
    },
    {
      names: "store (storeid) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/customerterminals${q({ storeid: target.storeId })}`,
      }),
    },
    {
      names: "plan (customerplanid) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/customerterminals${q({ customerplanid: target.planId })}`,
      }),
    },
    {
      names: "order (custorderid) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/customerterminals${q({ custorderid: target.orderId })}`,
      }),
    },
  ],
  'PUT /api/customers/:id/:token/customerterminals/:terminalId': [
    {
      names: 'terminal',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/customerterminals/${target.terminalId}`,
        payload: { elmer_id: target.elmerId, under_transfer: true, version: target.terminalVersion },
      }),
    },
    {
      names: "terminal of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/customerterminals/${target.terminalId}`,
        payload: { elmer_id: target.elmerId, under_transfer: true, version: target.terminalVersion },
      }),
    },
  ],
  'DELETE /api/customers/:token/customerterminals/:terminalId': [
    {
      names: 'terminal',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${token}/customerterminals/${target.terminalId}${q({ reason_id: RETIRE_REASON_ID.value, version: 999 })}`,
      }),
    },
  ],
  'GET /api/customers/:token/terminals/validate/:a/:b': [
    {
      names: 'terminal (its id and serial number)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${token}/terminals/validate/${target.elmerId}/${target.serialNumber}`,
      }),
      // A validation answers 200 for a missing terminal too: another agent's reads exactly like a missing one.
      refusedAs: (body) =>
        body.info?.terminal === null && body.info?.serial_in_use_by === null && body.info?.valid === false,
    },
  ],
  'GET /api/customers/:id/:token/customerpaymentplans': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/${target.customerId}/${token}/customerpaymentplans` }),
    },
    {
      names: "store (storeid) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/customerpaymentplans${q({ storeid: target.storeId })}`,
      }),
    },
  ],
  'GET /api/customers/:id/:token/customerpaymentplans/:planId': [
    {
      names: 'plan',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/customerpaymentplans/${target.planId}`,
      }),
    },
    {
      names: "plan of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/customerpaymentplans/${target.planId}`,
      }),
    },
  ],
  'POST /api/customers/:id/:token/customerpaymentplans': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/customerpaymentplans`,
        payload: { kind: 'monthly', store_id: target.storeId, recurring_amount_cents: 79_00, starts_on: '2026-12-01' },
      }),
    },
    {
      names: "store (store_id) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/customerpaymentplans`,
        payload: { kind: 'monthly', store_id: target.storeId, recurring_amount_cents: 79_00, starts_on: '2026-12-01' },
      }),
    },
  ],
  'POST /api/customers/:id/:token/customerpaymentplans/:planId': [
    {
      names: 'plan',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/customerpaymentplans/${target.planId}`,
        payload: { license_expires_on: '2027-12-31', version: 999 },
      }),
    },
  ],
  'PUT /api/customers/:id/:token/customerpaymentplans/:planId': [
    {
      names: 'plan',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/customerpaymentplans/${target.planId}`,
        payload: { plan_name: 'Object matrix', version: 999 },
      }),
    },
  ],
  'GET /api/customers/:id/:token/customerbillingitems': [
    {
      names: 'customer (and its store)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/customerbillingitems${q({ custstoreid: target.storeId })}`,
      }),
    },
    {
      names: "store (custstoreid) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/customerbillingitems${q({ custstoreid: target.storeId })}`,
      }),
    },
    {
      names: "plan (customerplanid) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/customerbillingitems${q({ custstoreid: own.storeId, customerplanid: target.planId })}`,
      }),
    },
  ],
  'POST /api/customers/:id/:token/customerbillingitems': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/customerbillingitems`,
        payload: { billing_item_id: 8, store_id: target.storeId, unit_price_cents: 10_00 },
      }),
    },
    {
      names: "plan (plan_id) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/customerbillingitems`,
        payload: { billing_item_id: 8, store_id: own.storeId, plan_id: target.planId, unit_price_cents: 10_00 },
      }),
    },
  ],
  'GET /api/customers/:id/:token/features': [
    {
      names: 'store (custstoreid)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/features${q({ custstoreid: target.storeId })}`,
      }),
    },
  ],
  'PUT /api/customers/:id/:token/features': [
    {
      names: 'store (custstoreid)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/features`,
        payload: { custstoreid: target.storeId, features: [], features_version: 'v-object' },
      }),
    },
  ],
  'GET /api/customers/:id/customerbundles/:token': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/${target.customerId}/customerbundles/${token}` }),
    },
  ],
  'GET /api/customers/:id/:token/orderpromotions': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/${target.customerId}/${token}/orderpromotions` }),
    },
  ],
  'GET /api/customers/:id/:token/transactions': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/${target.customerId}/${token}/transactions` }),
    },
    {
      names: "invoice (invoiceid) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/transactions${q({ invoiceid: target.invoiceId })}`,
      }),
    },
  ],
  'POST /api/customers/:id/:token/transactions/:txId': [
    {
      names: 'transaction',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/transactions/${target.transactionId}`,
        payload: { action: 'void', version: 999 },
        headers: idem(),
      }),
    },
    {
      names: "transaction of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/transactions/${target.transactionId}`,
        payload: { action: 'void', version: 999 },
        headers: idem(),
      }),
    },
  ],
  'GET /api/customers/:id/:token/customerinvoices': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/${target.customerId}/${token}/customerinvoices` }),
    },
  ],
  'GET /api/customers/:id/:token/creditinvoices': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/${target.customerId}/${token}/creditinvoices` }),
    },
    {
      names: "store (storeid) of another customer than the path's",
      rule: 'parent',
      field: 'storeid',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/creditinvoices?storeid=${target.storeId}`,
      }),
    },
  ],
  'GET /api/customers/:id/:token/customerinvoices/:invoiceId': [
    {
      names: 'invoice',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/customerinvoices/${target.invoiceId}`,
      }),
    },
    {
      names: "invoice of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/customerinvoices/${target.invoiceId}`,
      }),
    },
  ],
  'POST /api/customers/:id/:token/customerinvoices/:invoiceId/reverse': [
    {
      names: "invoice of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/customerinvoices/${target.invoiceId}/reverse`,
        payload: { reason: 'Object matrix', version: 999 },
        headers: idem(),
      }),
    },
    {
      names: 'invoice',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/customerinvoices/${target.invoiceId}/reverse`,
        payload: { reason: 'Object matrix', version: 999 },
        headers: idem(),
      }),
    },
  ],
  'GET /api/customers/:id/:token/paymentinstruments': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/${target.customerId}/${token}/paymentinstruments` }),
    },
  ],
  'GET /api/customers/:id/:token/paymentinstruments/:instrumentId': [
    {
      names: 'payment instrument',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/paymentinstruments/${target.instrumentId}`,
      }),
    },
    {
      names: "payment instrument of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/paymentinstruments/${target.instrumentId}`,
      }),
    },
  ],
  'POST /api/customers/:id/:token/paymentinstruments': [
    {
      names: 'customer',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/paymentinstruments`,
        payload: { kind: 'card', card_token: 'tok_not_a_real_token', name_on_account: 'Object Matrix' },
        headers: idem(),
      }),
    },
    {
      names: "store (store_id) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/paymentinstruments`,
        payload: {
          kind: 'card',
          card_token: 'tok_not_a_real_token',
          name_on_account: 'Object Matrix',
          store_id: target.storeId,
        },
        headers: idem(),
      }),
    },
  ],
  'PUT /api/customers/:id/:token/paymentinstruments/:instrumentId': [
    {
      names: 'payment instrument',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/paymentinstruments/${target.instrumentId}`,
        payload: { is_default: true, version: 999 },
      }),
    },
    {
      names: "payment instrument of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/paymentinstruments/${target.instrumentId}`,
        payload: { is_default: true, version: 999 },
      }),
    },
  ],
  'DELETE /api/customers/:id/:token/paymentinstruments/:instrumentId': [
    {
      names: 'payment instrument',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/paymentinstruments/${target.instrumentId}${q({ version: 999 })}`,
      }),
    },
  ],

  // ── Returns (customer privileges reach them: scoped by the store) ───────────────────────────────────────────
  'GET /api/returns/eligible/:token': [
    {
      names: 'store (storeid)',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/returns/eligible/${token}${q({ storeid: target.storeId })}` }),
    },
    {
      names: 'customer (customerid)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/returns/eligible/${token}${q({ customerid: target.customerId })}`,
      }),
    },
  ],
  'GET /api/returns/:token': [
    {
      names: 'customer (customer_id)',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/returns/${token}${q({ customer_id: target.customerId })}` }),
    },
  ],
  'POST /api/returns/:token': [
    {
      names: 'store (store_id)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/returns/${token}`,
        payload: { store_id: target.storeId, terminal_ids: [target.terminalId], reason: 'Object matrix' },
        headers: idem(),
      }),
    },
    {
      names: "terminal (terminal_ids) of another store than store_id's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/returns/${token}`,
        payload: { store_id: own.storeId, terminal_ids: [target.terminalId], reason: 'Object matrix' },
        headers: idem(),
      }),
    },
  ],
  'GET /api/returns/:id/:token': [
    {
      names: 'return',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/returns/${target.returnId}/${token}` }),
    },
  ],
  'POST /api/returns/:id/status/:token': [
    {
      names: 'return',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/returns/${target.returnId}/status/${token}`,
        payload: { action: 'reject', version: 999, reason: 'Object matrix' },
      }),
    },
  ],

  // ── AR: the ids inside bodies must belong to the record they are for ───────────────────────────────────────
  'POST /api/receipts/:token': [
    {
      names: "store (store_id) of another customer than customer_id's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/receipts/${token}`,
        payload: {
          customer_id: own.customerId,
          store_id: target.storeId,
          method: 'cash',
          amount_cents: 10_00,
          currency: 'USD',
          received_on: '2026-11-20',
        },
        headers: idem(),
      }),
    },
  ],
  'POST /api/receipts/:receiptId/applications/:token': [
    {
      names: "invoice (applications[].invoice_id) of another customer than the receipt's",
      rule: 'parent',
      fresh: true,
      request: ({ own, target, token }) => ({
        url: `/api/receipts/${own.receiptId}/applications/${token}`,
        payload: { version: own.receiptVersion, applications: [{ invoice_id: target.invoiceId, amount_cents: 1_00 }] },
        headers: idem(),
      }),
    },
  ],
  'DELETE /api/receipts/:receiptId/applications/:allocationId/:token': [
    {
      names: "allocation of another receipt than the path's",
      rule: 'parent',
      fresh: true,
      request: ({ own, target, token }) => ({
        url: `/api/receipts/${own.receiptId}/applications/${target.allocationId}/${token}${q({ version: own.receiptVersion })}`,
        headers: idem(),
      }),
    },
  ],
  'POST /api/memos/:token': [
    {
      names: "invoice (invoice_id) of another customer than customer_id's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/memos/${token}`,
        payload: {
          customer_id: own.customerId,
          invoice_id: target.invoiceId,
          type: 'C',
          amount_cents: 1_00,
          currency: 'USD',
          reason: 'Object matrix',
          note: 'Object matrix',
        },
        headers: idem(),
      }),
    },
    {
      names: "store (store_id) of another customer than customer_id's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/memos/${token}`,
        payload: {
          customer_id: own.customerId,
          store_id: target.storeId,
          type: 'C',
          amount_cents: 1_00,
          currency: 'USD',
          reason: 'Object matrix',
          note: 'Object matrix',
        },
        headers: idem(),
      }),
    },
  ],

  // ── Orders (the order rule, decision 102; order-access.test.ts goes through each in depth) ─────────────────
  'GET /api/customers/orderstatus/history/:orderId/:token': [
    {
      names: 'order',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/orderstatus/history/${target.orderId}/${token}` }),
    },
  ],
  'GET /api/customers/ordernotes/:orderId/:token': [
    {
      names: 'order',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/ordernotes/${target.orderId}/${token}` }),
    },
  ],
  'POST /api/customers/ordernotes/:orderId/:token': [
    {
      names: 'order',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/ordernotes/${target.orderId}/${token}`,
        payload: { note: 'Object matrix note.' },
      }),
    },
  ],
  'PUT /api/customers/ordernotes/:token': [
    {
      names: 'order (order_id)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/ordernotes/${token}`,
        payload: { order_id: target.orderId, status: '2', version: 999 },
      }),
    },
  ],
  'GET /api/customers/orderinfo/:token': [
    {
      names: 'order (id)',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/orderinfo/${token}${q({ id: target.orderId })}` }),
    },
    {
      names: 'order (unifiedid)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/orderinfo/${token}${q({ unifiedid: target.unifiedOrderId })}`,
      }),
    },
  ],
  'POST /api/customers/orderinfo/:orderInfoId/:token': [
    {
      names: 'customer inside the order document (json.additionalInfo.customerID)',
      rule: 'owner',
      field: 'json.additionalInfo.customerID',
      refused: { status: 400 },
      request: ({ target, token }) => {
        const json = blankOrder();
        return {
          url: `/api/customers/orderinfo/new/${token}`,
          payload: { json: { ...json, additionalInfo: { ...json.additionalInfo, customerID: target.customerId } } },
        };
      },
    },
    {
      names: 'store inside the order document (json.StoreInfo.customerStoreId)',
      rule: 'owner',
      field: 'json.StoreInfo.customerStoreId',
      refused: { status: 400 },
      request: ({ target, token }) => {
        const json = blankOrder();
        return {
          url: `/api/customers/orderinfo/new/${token}`,
          payload: {
            json: {
              ...json,
              additionalInfo: { ...json.additionalInfo, customerID: target.customerId },
              StoreInfo: { ...json.StoreInfo, customerStoreId: target.storeId },
            },
          },
        };
      },
    },
    {
      names: 'order',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/orderinfo/${target.orderId}/${token}`,
        payload: { json: {}, version: 999 },
      }),
    },
  ],
  'GET /api/customers/orderinfo/:orderId/customermatch/:token': [
    {
      names: 'order (its existing-customer match)',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/orderinfo/${target.orderId}/customermatch/${token}` }),
    },
  ],
  'GET /api/customers/orders/:orderId/:token': [
    {
      names: 'order',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/orders/${target.orderId}/${token}` }),
    },
  ],
  'GET /api/customers/agentorders/:orderId/:token': [
    {
      names: 'order (its agents)',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/agentorders/${target.orderId}/${token}` }),
    },
  ],
  'POST /api/customers/agentorders/:token/add': [
    {
      names: 'order (order_id)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/agentorders/${token}/add`,
        payload: { order_id: target.orderId, agent_id: SPARE_AGENT.value },
      }),
    },
  ],
  'PUT /api/customers/agentorders/:token/updateagentid': [
    {
      names: 'order (order_id)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/agentorders/${token}/updateagentid`,
        payload: { order_id: target.orderId, agent_id: SPARE_AGENT.value, version: 999 },
      }),
    },
  ],
  'DELETE /api/customers/agentorders/:token/delete': [
    {
      names: 'order (order_id)',
      rule: 'owner',
      fresh: true,
      request: ({ target, token }) => ({
        url: `/api/customers/agentorders/${token}/delete`,
        payload: { order_id: target.orderId, agent_id: SPARE_AGENT.value },
      }),
    },
  ],
  'POST /api/paymentauthorizations/:token': [
    {
      names: 'order (order_id)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/paymentauthorizations/${token}`,
        payload: {
          order_id: target.orderId,
          amount_cents: 1_00,
          currency: 'USD',
          payment_instrument_id: target.instrumentId,
        },
        headers: idem(),
      }),
    },
    {
      names: "payment instrument (payment_instrument_id) of another customer than the order's",
      rule: 'parent',
      field: 'payment_instrument_id',
      request: ({ own, target, token }) => ({
        url: `/api/paymentauthorizations/${token}`,
        payload: {
          order_id: own.orderId,
          amount_cents: 1_00,
          currency: 'USD',
          payment_instrument_id: target.instrumentId,
        },
        headers: idem(),
      }),
    },
  ],
  'GET /api/paymentauthorizations/orders/:orderId/:token': [
    {
      names: 'order',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/paymentauthorizations/orders/${target.orderId}/${token}` }),
    },
  ],
  'POST /api/paymentauthorizations/orders/:orderId/:token': [
    {
      names: 'order',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/paymentauthorizations/orders/${target.orderId}/${token}`,
        headers: idem(),
      }),
    },
  ],
  'GET /api/customers/contracts/:orderId/:token': [
    {
      names: 'order',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/customers/contracts/${target.orderId}/${token}` }),
    },
  ],
  'GET /api/customers/contracts/:orderId/:contractId/pdf/:token': [
    {
      names: 'order (and its contract)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/contracts/${target.orderId}/${target.contractId}/pdf/${token}`,
      }),
    },
    {
      names: "contract of another order than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/contracts/${own.orderId}/${target.contractId}/pdf/${token}`,
      }),
    },
  ],
  'POST /api/customers/contracts/:orderId/send/:token': [
    {
      names: 'order',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/contracts/${target.orderId}/send/${token}`,
        payload: { kind: 'sign' },
      }),
    },
  ],
  'POST /api/customers/contracts/:orderId/upload/:token': [
    {
      names: 'order',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/contracts/${target.orderId}/upload/${token}`,
        payload: {},
      }),
    },
  ],

  // ── Agents ──────────────────────────────────────────────────────────────────────────────────────────────────
  'GET /api/agents/:agentId/:token': [
    {
      names: 'agent',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/agents/${target.agentId ?? SPARE_AGENT.value}/${token}` }),
    },
  ],
  'GET /api/agents/:agentId/:token/stores': [
    {
      names: 'agent',
      rule: 'owner',
      request: ({ target, token }) => ({ url: `/api/agents/${target.agentId ?? SPARE_AGENT.value}/${token}/stores` }),
    },
  ],

  // ── Feature changes for the merchant to accept ────────────────────────────────────────────────────────────
  'POST /api/customers/:id/:token/featurechanges': [
    {
      names: 'store (custstoreid)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/featurechanges`,
        payload: { custstoreid: target.storeId, features: [], features_version: 'v-object' },
      }),
    },
    {
      names: "store (custstoreid) of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/featurechanges`,
        payload: { custstoreid: target.storeId, features: [], features_version: 'v-object' },
      }),
    },
  ],
  'GET /api/customers/:id/:token/featurechanges': [
    {
      names: 'store (custstoreid)',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/featurechanges${q({ custstoreid: target.storeId })}`,
      }),
    },
  ],
  'POST /api/customers/:id/:token/featurechanges/:changeId/cancel': [
    {
      names: 'feature change',
      rule: 'owner',
      request: ({ target, token }) => ({
        url: `/api/customers/${target.customerId}/${token}/featurechanges/${target.featureChangeId}/cancel`,
        payload: { version: target.featureChangeVersion },
      }),
    },
    {
      names: "feature change of another customer than the path's",
      rule: 'parent',
      request: ({ own, target, token }) => ({
        url: `/api/customers/${own.customerId}/${token}/featurechanges/${target.featureChangeId}/cancel`,
        payload: { version: target.featureChangeVersion },
      }),
    },
  ],
};

/** Filled in by the suite before the calls (ids that exist only once the database does). */
export const RETIRE_REASON_ID = { value: 0 };
export const SPARE_AGENT = { value: 0 };

/**
 * Id-bearing routes whose ids name records no agent-scoped session can reach: their guards need a provider-wide
 * privilege or role (decision 140), so every caller that passes sees every such record — the suite checks that no
 * agent-scoped caller passes. Ids in their bodies that must belong to another record named beside them have
 * `parent` entries in OBJECT_MATRIX as well.
 */
export const PROVIDER_WIDE: Readonly<Record<string, string>> = {
  'GET /api/invoices/:token': 'the invoices screen (privilege invoices)',
  'GET /api/invoices/:invoiceId/:token': 'the invoices screen (privilege invoices)',
  'GET /api/invoices/:invoiceId/pdf/:token': 'the invoices screen (privilege invoices)',
  'POST /api/invoices/:invoiceId/email/:token': 'the invoices screen (privilege invoices)',
  'GET /api/breathoflife/:storeId/:token': 'win-back (breath_of_life)',
  'POST /api/breathoflife/:storeId/activities/:token': 'win-back (breath_of_life)',
  'POST /api/breathoflife/:storeId/offer/:token': 'win-back (breath_of_life)',
  'POST /api/breathoflife/:storeId/outcome/:token': 'win-back (breath_of_life)',
  'POST /api/breathoflife/:storeId/reactivate/:token': 'win-back (breath_of_life)',
  'GET /api/reports/sales/reps/:id/:token': 'reports (reports_edit)',
  'GET /api/reports/sales/reps/:id/customers/:token': 'reports (reports_edit)',
  'GET /api/reports/customer-listing/:token': 'reports (reports_edit)',
  'GET /api/reports/aging/invoices/:token': 'reports (reports_edit)',
  'GET /api/receipts/:token': 'receipts (receipts)',
  'POST /api/receipts/:token': 'receipts (receipts)',
  'GET /api/receipts/:receiptId/:token': 'receipts (receipts, apply_receipt)',
  'POST /api/receipts/:receiptId/applications/:token': 'receipts (apply_receipt)',
  'DELETE /api/receipts/:receiptId/applications/:allocationId/:token': 'receipts (apply_receipt)',
  'POST /api/returns/:id/refund/:token': 'refunds (ar_approvals)',
  'POST /api/memos/:token': 'memos (invoices, ar_approvals)',
  'GET /api/memos/:token': 'memos (invoices, ar_approvals)',
  'POST /api/memos/:memoId/decision/:token': 'approvals (ar_approvals)',
  'POST /api/writeoffs/:token': 'write-offs (invoices, ar_approvals)',
  'GET /api/writeoffs/:token': 'write-offs (invoices, ar_approvals)',
  'POST /api/writeoffs/:writeOffId/decision/:token': 'approvals (ar_approvals)',
  'POST /api/approvals/decisions/:token': 'approvals (ar_approvals)',
  'GET /api/customers/paymentcollection/:paymentPlanId/:token': 'collection (collect_payment)',
  'POST /api/customers/paymentcollection/:paymentPlanId/card/:token': 'collection (collect_payment)',
  'POST /api/customers/transactions/sns/:token': 'failed payments (failed_payments_edit, collect_payment)',
  'POST /api/customers/invoices/collect/due/sns/:token': 'collection (collect_payment, failed_payments_edit)',
  'POST /api/customers/paymentcollection/sns/:token': 'collection (collect_payment, failed_payments_edit)',
};

/** Id-bearing routes whose ids name nothing a merchant or an agent owns, with the reason. */
export const NOT_OWNED: Readonly<Record<string, string>> = {
  'GET /api/crm/leads/:leadId/:token': "the CRM's leads (no merchant of ours yet; decision 159)",
  'DELETE /api/auth/integrationkeys/:id/:token': "the provider's integration keys (Admin)",
  'POST /api/auth/integrationkeys/:token': "the provider's integration keys (Admin; agent_id: Admin sees every agent)",
  'PUT /api/auth/getIdOrUpdateLoginRolePrivilegeEmail/:token': 'staff accounts, roles and privileges (Admin)',
  'GET /api/admin/staff/:token': "staff accounts (Admin; role_id names one of the provider's roles)",
  'GET /api/admin/staff/:id/:token': 'staff accounts (Admin)',
  'POST /api/admin/staff/:id/deactivate/:token': 'staff accounts (Admin)',
  'POST /api/admin/staff/:id/reactivate/:token': 'staff accounts (Admin)',
  'GET /api/bundles/billingitempriceoptions/:token': 'catalogue (bundle and plan ids)',
  'GET /api/customers/promotions/:code/:token': 'catalogue (promotion code and id)',
  'PUT /api/admin/catalogue/billingitems/:id/:token': 'catalogue (Admin)',
  'PUT /api/admin/catalogue/categories/:id/:token': 'catalogue (Admin)',
  'PUT /api/admin/catalogue/bundles/:id/:token': 'catalogue (Admin)',
  'POST /api/admin/catalogue/bundles/:id/options/:token': 'catalogue (Admin)',
  'PUT /api/admin/catalogue/bundles/:id/options/:optionId/:token': 'catalogue (Admin)',
  'PUT /api/admin/catalogue/products/:id/:token': 'catalogue (Admin)',
  'PUT /api/admin/catalogue/domaindata/:id/:token': 'catalogue (Admin)',
  'POST /api/admin/catalogue/billingitems/:token': 'catalogue (Admin)',
  'POST /api/admin/catalogue/bundles/:token': 'catalogue (Admin)',
  'GET /api/admin/mail/:id/:token': "the provider's outbound mail (Admin)",
  'POST /api/admin/jobs/:queue/run/:token': 'the job monitor (Admin runs a scheduled job of the whole provider)',
  'POST /api/admin/jobs/:queue/:id/retry/:token': 'the job monitor (Admin sees every job)',
  'POST /api/admin/jobs/:queue/:id/cancel/:token': 'the job monitor (Admin sees every job)',
  'GET /api/billing/ledger-check/:token': 'invoice id range of the ledger check (Admin)',
  'GET /api/billing/runs/:runId/:token': 'billing runs (Admin)',
  'GET /api/reconciliation/runs/:runId/:token':
    "reconciliation runs (AR Team, Admin: unscoped staff roles) — the provider's own books, every merchant's lines",
  'POST /api/customers/orderinfo/:orderId/onboard/:token': 'the onboarding re-run (Admin sees every order)',
  'POST /api/customers/orderinfo/:orderId/customermatch/:token':
    'back-office staff only (agent-scoped sessions are refused: decision 142), who see every order; customer_id must be the match’s own (409 otherwise)',
  'POST /api/promotions/:token': 'catalogue (promotions_edit; billing_item_ids of the catalogue)',
  'PUT /api/promotions/:id/:token': 'catalogue (promotions_edit)',
  'POST /api/promotions/:id/expire/:token': 'catalogue (promotions_edit)',
  'GET /api/promotions/:id/orders/:token':
    "a promotion (catalogue); its orders are listed through the order rule (order-access.test.ts: another agent's are not listed)",
  'GET /api/customers/orderinfo/pending/:token':
    "a list filtered by order id through the order rule (order-access.test.ts: another agent's is not listed)",
  'GET /api/customers/orders/search/:token':
    'the order search (agent_id narrows the list; the order rule filters it: order-access.test.ts)',
  'GET /api/customers/:token/all':
    "the customer search (customerid / storeid narrow the list; the owner rule filters it: see 'lists' below)",
  'POST /api/agents/:token': 'agent editors (Admin, RAM, IS: unscoped) — parent_agent_id of any agent',
  'PUT /api/agents/:agentId/:token': 'agent editors (Admin, RAM, IS: unscoped)',
  'POST /api/agents/:agentId/:token/deactivate': 'agent editors (Admin, RAM, IS: unscoped)',
  'POST /api/agents/:agentId/:token/invite': 'agent editors (Admin, RAM, IS: unscoped)',
};
