import {
  AGENT_SCOPED_PRIVILEGES,
  JOB_QUEUE,
  effectivePrivileges,
  hasAnyPermission,
  type Permission,
  type Role,
} from '@pos/domain';
import { count, eq } from 'drizzle-orm';
import type { HTTPMethods, InjectOptions, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgent,
  createCreditMemo,
  createCustomer,
  createCustomerBillingItem,
  createDistributorAccount,
  createDomainData,
  ensureBillingItems,
  createInvoice,
  createOrder,
  createPaymentInstrument,
  createPaymentPlan,
  createReceipt,
  createReceiptAllocation,
  createReferral,
  createSalesPerson,
  createStaffUser,
  createStore,
  createTerminal,
  createTransaction,
  setTaxRate,
} from '../db/factories';
import {
  agentOrders,
  agentStores,
  auditLog,
  contracts,
  customers,
  featureChanges,
  paymentInstruments,
  receipts,
  returns,
  returnTerminals,
  storeFiles,
  stores,
  taxCertificates,
  uploads,
} from '../db/schema';
import { defineQueues, enqueueJob } from '../jobs/registry';
import { newUploadPublicId } from '../lib/storage-key';
import { signIn } from '../test/sign-in';
import { createTestApp, type TestApp } from '../test/test-app';
import {
  NOT_OWNED,
  OBJECT_MATRIX,
  PROVIDER_WIDE,
  RETIRE_REASON_ID,
  SPARE_AGENT,
  type ObjectEntry,
  type World,
} from './object-authorization.table';
import { AUTHORIZATION_MATRIX } from './authorization-matrix.table';
import { SESSION_GUARD, type RequireSessionOptions } from './session';
import type { AuditActor } from './audit';

/*
 * The object-level authorization suite (issue 27, decision 140): every registered route that takes a record id — in
 * its path, its query or its body — × every kind of caller × {a record the caller may see, one it may not} → allowed
 * or 404, as the owner rules say (packages/domain/src/access/). Generated from the routes the app registers and the
 * table in `object-authorization.table.ts`: a new id-bearing route without an entry fails here, naming itself.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

// ── Who calls ─────────────────────────────────────────────────────────────────────────────────────────────────────

interface Caller {
  readonly label: string;
  /** Limited to its agent's records (decision 102 / 140). */
  readonly scoped: boolean;
  readonly kind: 'staff' | 'distributor' | 'maketoken';
  readonly role: Role;
  readonly privileges: readonly string[];
  token: string;
  agentId: number | null;
  actor: AuditActor | null;
  /** The caller's own merchant. */
  world: World | null;
}

const caller = (c: Omit<Caller, 'token' | 'agentId' | 'actor' | 'world'>): Caller => ({
  ...c,
  token: '',
  agentId: null,
  actor: null,
  world: null,
});

const CALLERS = {
  agentStaff: caller({
    label: 'Distributor staff with every agent privilege (agent-scoped)',
    scoped: true,
    kind: 'staff',
    role: 'Distributor',
    privileges: effectivePrivileges('Distributor', AGENT_SCOPED_PRIVILEGES),
  }),
  rdc: caller({
    label: 'RDC staff (agent-scoped)',
    scoped: true,
    kind: 'staff',
    role: 'RDC',
    privileges: effectivePrivileges('RDC'),
  }),
  distributorLogin: caller({
    label: 'distributor login (agent-scoped)',
    scoped: true,
    kind: 'distributor',
    role: 'Distributor',
    privileges: effectivePrivileges('Distributor'),
  }),
  makeToken: caller({
    label: 'make-token session (agent-scoped)',
    scoped: true,
    kind: 'maketoken',
    role: 'Distributor',
    privileges: effectivePrivileges('Distributor'),
  }),
  support: caller({
    label: 'Customer Support (unscoped staff)',
    scoped: false,
    kind: 'staff',
    role: 'Customer Support',
    privileges: effectivePrivileges('Customer Support'),
  }),
  admin: caller({
    label: 'Admin (unscoped staff)',
    scoped: false,
    kind: 'staff',
    role: 'Admin',
    privileges: effectivePrivileges('Admin'),
  }),
};
type CallerName = keyof typeof CALLERS;
const CALLER_NAMES = Object.keys(CALLERS) as CallerName[];
const SCOPED_CALLERS = CALLER_NAMES.filter((n) => CALLERS[n].scoped);

// ── The routes ────────────────────────────────────────────────────────────────────────────────────────────────────

/** The leaf names of a zod schema's fields (objects, arrays, unions and wrappers walked). */
function fieldsOf(schema: unknown): string[] {
  const def = (schema as { _zod?: { def?: Json } } | undefined)?._zod?.def;
  if (!def) return [];
  switch (def.type) {
    case 'object':
      return Object.entries(def.shape as Json).flatMap(([k, v]) => [k, ...fieldsOf(v)]);
    case 'array':
      return fieldsOf(def.element);
    case 'pipe':
      return fieldsOf(def.in);
    case 'union':
      return (def.options as unknown[]).flatMap(fieldsOf);
    case 'intersection':
      return [...fieldsOf(def.left), ...fieldsOf(def.right)];
    case 'optional':
    case 'nullable':
    case 'default':
    case 'prefault':
    case 'readonly':
    case 'catch':
      return fieldsOf(def.innerType);
    default:
      return [];
  }
}

/** A field or parameter that names a record. */
const ID_FIELD = /(id|ids)$/i;
const NOT_ID = new Set(['token', 'tok', 'idtoken', 'processorSetupIntent']);

interface RegisteredRoute {
  readonly name: string;
  readonly guard: RequireSessionOptions | null;
  readonly idFields: readonly string[];
}

function guardOf(route: RouteOptions): RequireSessionOptions | null {
  const hooks = ([] as unknown[]).concat(route.onRequest ?? []);
  const hook = hooks.find((h) => typeof h === 'function' && SESSION_GUARD in h) as
    Record<symbol, RequireSessionOptions> | undefined;
  return hook ? hook[SESSION_GUARD]! : null;
}

// ── The app and the merchants ─────────────────────────────────────────────────────────────────────────────────────

let t: TestApp;
const routes = new Map<string, RegisteredRoute>();
let otherAgent: number;
/** The requester of the foreign world's job: a staff user none of the callers is. */
let otherActor: AuditActor;

let worldMs = 0;
let worlds = 0;
async function buildWorld(agentId: number | null, requester: AuditActor): Promise<World> {
  const started = Date.now();
  try {
    return await buildWorldNow(agentId, requester);
  } finally {
    worldMs += Date.now() - started;
    worlds++;
  }
}
async function buildWorldNow(agentId: number | null, requester: AuditActor): Promise<World> {
  const db = t.database.db;
  const customer = await createCustomer(db, { email: `object-${Math.random().toString(36).slice(2)}@example.org` });
  // Texas: the suite sets its tax rate (taxes/fetch prices the store's sales).
  const address = {
    address1: '1 Object Way',
    address2: null,
    city: 'Austin',
    state: 'TX',
    zip: '73301',
    country: 'US',
  };
  const store = await createStore(db, {
    customerId: customer.id,
    storeAddress: address,
    dbaAddress: address,
    state: 'TX',
  });
  if (agentId !== null) await db.insert(agentStores).values({ agentId, storeId: store.id });
  const order = await createOrder(db, { status: '1', customerId: customer.id, storeId: store.id, agentId });
  const terminal = await createTerminal(db, { customerId: customer.id, storeId: store.id, orderId: order.id });
  const plan = await createPaymentPlan(db, { customerId: customer.id, storeId: store.id });
  const billingItem = await createCustomerBillingItem(db, {
    customerId: customer.id,
    storeId: store.id,
    planId: plan.id,
  });
  const instrument = await createPaymentInstrument(db, { customerId: customer.id, storeId: store.id });
  const invoice = await createInvoice(db, { customerId: customer.id, storeId: store.id });
  const transaction = await createTransaction(db, { invoiceId: invoice.id, status: 'F' });
  await createCreditMemo(db, { customerId: customer.id, storeId: store.id, invoiceId: invoice.id });
  const receipt = await createReceipt(db, { customerId: customer.id, amountCents: 50_00 });
  const allocation = await createReceiptAllocation(db, {
    receiptId: receipt.id,
    invoiceId: invoice.id,
    amountCents: 10_00,
  });
  const [ret] = await db
    .insert(returns)
    .values({
      customerId: customer.id,
      storeId: store.id,
      orderId: order.id,
      reason: 'Object matrix return',
      currency: 'USD',
      createdByEmail: 'object@example.com',
    })
    .returning();
  await db.insert(returnTerminals).values({ returnId: ret!.id, terminalId: terminal.id });
  const [certificate] = await db
    .insert(taxCertificates)
    .values({ customerId: customer.id, storeId: store.id, state: 'AZ', certificateNumber: 'TPT-OBJECT', kind: 'TPT' })
    .returning();
  const [change] = await db
    .insert(featureChanges)
    .values({
      customerId: customer.id,
      storeId: store.id,
      planId: plan.id,
      changes: [],
      currentMonthlyCents: 79_00,
      newMonthlyCents: 79_00,
      currency: 'USD',
      effectiveOn: '2026-12-01',
      createdByEmail: 'object@example.com',
    })
    .returning();
  const [upload] = await db
    .insert(uploads)
    .values({
      publicId: newUploadPublicId(),
      kind: 'contract',
      originalName: 'contract.pdf',
      contentType: 'application/pdf',
      sizeBytes: 10,
      sha256: '0'.repeat(64),
      storageKey: `object/${order.id}.pdf`,
      ownerType: 'order',
      ownerId: String(order.id),
    })
    .returning();
  await t.app.ctx.storage.put(
    `object/${order.id}.pdf`,
    new TextEncoder().encode('%PDF-1.4\n%%EOF\n'),
    'application/pdf',
  );
  await db
    .insert(agentOrders)
    .values({ orderId: order.id, agentId: SPARE_AGENT.value, assignedByEmail: 'object@example.com' });
  const [contract] = await db
    .insert(contracts)
    .values({ orderId: order.id, versionNo: 1, status: 'generated', uploadId: upload!.id })
    .returning();
  // A store picture of the store (decision 160).
  const [pictureUpload] = await db
    .insert(uploads)
    .values({
      publicId: newUploadPublicId(),
      kind: 'storePicture',
      originalName: 'front.png',
      contentType: 'image/png',
      sizeBytes: 8,
      sha256: '0'.repeat(64),
      storageKey: `object/store-${store.id}.png`,
      ownerType: 'store',
      ownerId: String(store.id),
    })
    .returning();
  await t.app.ctx.storage.put(
    `object/store-${store.id}.png`,
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    'image/png',
  );
  const [storeFile] = await db
    .insert(storeFiles)
    .values({
      storeId: store.id,
      uploadId: pictureUpload!.id,
      kind: 'store_picture',
      uploadedByName: 'Object Suite',
      uploadedByEmail: 'object@example.com',
      uploadedAt: new Date(),
    })
    .returning();
  // A store picture a new merchant's rep uploaded to the order (decision 160): the order's until Complete.
  const [orderPictureUpload] = await db
    .insert(uploads)
    .values({
      publicId: newUploadPublicId(),
      kind: 'storePicture',
      originalName: 'order-front.png',
      contentType: 'image/png',
      sizeBytes: 8,
      sha256: '0'.repeat(64),
      storageKey: `object/order-${order.id}.png`,
      ownerType: 'order',
      ownerId: String(order.id),
    })
    .returning();
  await t.app.ctx.storage.put(
    `object/order-${order.id}.png`,
    new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    'image/png',
  );
  const [orderFile] = await db
    .insert(storeFiles)
    .values({
      orderId: order.id,
      uploadId: orderPictureUpload!.id,
      kind: 'store_picture',
      uploadedByName: 'Object Suite',
      uploadedByEmail: 'object@example.com',
      uploadedAt: new Date(),
    })
    .returning();
  const salesPerson = await createSalesPerson(db, { agentId });
  const referral = await createReferral(db, { agentId });
  const jobId = await enqueueJob(
    t.app.ctx.queue,
    JOB_QUEUE.paymentPlans,
    {
      input: { plans: [{ customerplanid: plan.id, licenseExpiresOn: '2027-12-31' }] },
      requestedBy: requester,
      requestId: null,
    } as never,
    db,
  );
  return {
    agentId,
    customerId: customer.id,
    federalTaxId: customer.federalTaxId!,
    storeId: store.id,
    orderId: order.id,
    unifiedOrderId: order.unifiedOrderId,
    orderVersion: order.version,
    terminalId: terminal.id,
    elmerId: terminal.elmerId,
    terminalVersion: terminal.version,
    serialNumber: terminal.serialNumber!,
    planId: plan.id,
    planVersion: plan.version,
    customerBillingItemId: billingItem.id,
    instrumentId: instrument.id,
    instrumentVersion: instrument.version,
    invoiceId: invoice.id,
    invoiceVersion: invoice.version,
    transactionId: transaction.id,
    transactionVersion: transaction.version,
    returnId: ret!.id,
    returnVersion: ret!.version,
    certificateId: certificate!.id,
    storeFileId: storeFile!.id,
    orderFileId: orderFile!.id,
    featureChangeId: change!.id,
    featureChangeVersion: change!.version,
    contractId: contract!.id,
    contractUploadId: upload!.publicId,
    receiptId: receipt.id,
    receiptVersion: (await db.select({ v: receipts.version }).from(receipts).where(eq(receipts.id, receipt.id)))[0]!.v,
    allocationId: allocation.id,
    salesPersonId: salesPerson.id,
    referralCode: referral.refCode,
    agentVersion: 1,
    jobId: jobId!,
  };
}

beforeAll(async () => {
  t = await createTestApp({
    onRoute(route) {
      const schema = (route.schema ?? {}) as Json;
      const params = fieldsOf(schema.params).filter((f) => !NOT_ID.has(f));
      const inner = [...fieldsOf(schema.querystring), ...fieldsOf(schema.body)].filter(
        (f) => ID_FIELD.test(f) && !NOT_ID.has(f),
      );
      for (const method of ([] as HTTPMethods[]).concat(route.method)) {
        if (method === 'HEAD') continue;
        const name = `${method} ${route.url}`;
        routes.set(name, { name, guard: guardOf(route), idFields: [...new Set([...params, ...inner])] });
      }
    },
  });
  const db = t.database.db;
  otherAgent = (await createAgent(db, { type: 'Distributor', name: 'Other Agent Inc' })).id;
  SPARE_AGENT.value = (await createAgent(db, { type: 'Distributor', name: 'Spare Agent Inc' })).id;
  await defineQueues(t.app.ctx.queue, { queues: [JOB_QUEUE.paymentPlans] });
  await ensureBillingItems(db, [8]);
  await setTaxRate(db, { country: 'US', state: 'TX', rateBasisPoints: 825 });
  RETIRE_REASON_ID.value = (await createDomainData(db, { type: 'retire_reason', code: 'object', label: 'Object' })).id;
  const other = await createStaffUser(db, { email: 'object-other@example.com', role: 'AR Team' });
  otherActor = { actorType: 'staff', actorId: other.id, actorEmail: other.email };

  for (const name of CALLER_NAMES) {
    const c = CALLERS[name];
    const agentId = c.scoped ? (await createAgent(db, { type: c.role === 'RDC' ? 'RDC' : 'Distributor' })).id : null;
    c.agentId = agentId;
    if (c.kind === 'staff') {
      const email = `object-${name.toLowerCase()}@example.com`;
      const extra = c.privileges.filter((p) => !effectivePrivileges(c.role).includes(p as Permission)) as Permission[];
      const user = await createStaffUser(db, { email, role: c.role, agentId, additionalPrivileges: extra });
      c.token = await signIn(t, email);
      c.actor = { actorType: 'staff', actorId: user.id, actorEmail: email };
    } else if (c.kind === 'distributor') {
      const email = `object-${name.toLowerCase()}@example.com`;
      const account = await createDistributorAccount(db, { email, password: 'object-matrix-1', agentId: agentId! });
      const login = await t.request({
        method: 'POST',
        url: '/api/auth/distributor/login',
        payload: { email, password: 'object-matrix-1' },
      });
      if (login.statusCode !== 200) throw new Error(login.body);
      c.token = login.json().info.token as string;
      c.actor = { actorType: 'distributor', actorId: account.id, actorEmail: email };
    } else {
      const admin = await createStaffUser(db, { email: 'object-key-admin@example.com', role: 'Admin' });
      const adminToken = await signIn(t, admin.email);
      const made = await t.request({
        method: 'POST',
        url: `/api/auth/integrationkeys/${adminToken}`,
        payload: { name: 'Object CRM', agent_id: agentId },
      });
      if (made.statusCode !== 201) throw new Error(made.body);
      const got = await t.request({ method: 'GET', url: `/api/auth/${made.json().info.key as string}/gettoken` });
      if (got.statusCode !== 200) throw new Error(got.body);
      c.token = got.json().info.token as string;
      c.actor = { actorType: 'distributor', actorId: `agent:${agentId}`, actorEmail: null };
    }
  }
}, 120_000);
afterAll(async () => {
  console.info(`object matrix: ${worlds} merchants built in ${worldMs} ms`);
  await t.close();
});

async function auditCount(): Promise<number> {
  return (await t.database.db.select({ n: count() }).from(auditLog))[0]!.n;
}

async function call(route: string, req: { url: string; payload?: unknown; headers?: Record<string, string> }) {
  const method = route.slice(0, route.indexOf(' ')) as HTTPMethods;
  const res = await t.request({
    method,
    url: req.url,
    ...(req.payload !== undefined && { payload: req.payload as InjectOptions['payload'] }),
    ...(req.headers && { headers: req.headers }),
  });
  let body: Json = {};
  try {
    body = res.json() as Json;
  } catch {
    /* a PDF, a CSV */
  }
  return { status: res.statusCode, body };
}

// ── The tests ─────────────────────────────────────────────────────────────────────────────────────────────────────

const isIdRoute = (r: RegisteredRoute) => r.guard !== null && r.idFields.length > 0;

describe('the table covers every route that takes a record id', () => {
  it('every guarded route with an id in its path, query or body is in OBJECT_MATRIX, PROVIDER_WIDE or NOT_OWNED', () => {
    const covered = new Set([...Object.keys(OBJECT_MATRIX), ...Object.keys(PROVIDER_WIDE), ...Object.keys(NOT_OWNED)]);
    const idRoutes = [...routes.values()].filter(isIdRoute);
    expect(idRoutes.length).toBeGreaterThan(80);
    expect(
      idRoutes
        .filter((r) => !covered.has(r.name))
        .map(
          (r) =>
            `${r.name} takes ${r.idFields.join(', ')}: add entries to OBJECT_MATRIX in http/object-authorization.table.ts (or, with the reason, to PROVIDER_WIDE / NOT_OWNED)`,
        ),
    ).toEqual([]);
  });

  it('no stale entry: every route of the table is registered, guarded and takes an id; NOT_OWNED has no entry of the matrix', () => {
    const names = [...Object.keys(OBJECT_MATRIX), ...Object.keys(PROVIDER_WIDE), ...Object.keys(NOT_OWNED)];
    expect(names.filter((n) => !routes.has(n) || !isIdRoute(routes.get(n)!))).toEqual([]);
    expect(Object.keys(NOT_OWNED).filter((n) => n in OBJECT_MATRIX)).toEqual([]);
  });

  it('no agent-scoped caller passes the guard of a PROVIDER_WIDE route (decision 140: agent sessions hold only agent privileges)', () => {
    const passing = Object.keys(PROVIDER_WIDE).flatMap((name) =>
      SCOPED_CALLERS.filter((c) => passesGuard(name, CALLERS[c])).map((c) => `${name} as ${c}`),
    );
    expect(passing).toEqual([]);
  });

  it('an agent-scoped session is made without provider-wide privileges, whatever its role or grants say', async () => {
    const res = await t.request({
      method: 'GET',
      url: `/api/auth/permission/${CALLERS.agentStaff.token}?privileges=invoices,receipts,reports_edit,customer_details_view`,
    });
    expect(res.json().info.permissions).toEqual({
      invoices: false,
      receipts: false,
      reports_edit: false,
      customer_details_view: true,
    });
  });
});

const CASES = Object.entries(OBJECT_MATRIX).flatMap(([route, entries]) =>
  entries.map((entry) => [`${route} — ${entry.names}`, route, entry] as const),
);

function expectedVisible(entry: ObjectEntry, c: Caller, which: 'own' | 'foreign'): boolean {
  if (which === 'own') return true;
  switch (entry.rule) {
    case 'owner':
      return !c.scoped;
    case 'parent':
      return false;
    case 'requester':
      return c.role === 'Admin' && c.kind === 'staff';
  }
}

/** May this caller pass the route's guard and the handler's own session rule (the route matrix's table says)? */
function passesGuard(route: string, c: Caller): boolean {
  const access = AUTHORIZATION_MATRIX[route];
  if (!access) return false;
  if (access.staff && c.kind !== 'staff') return false;
  if (access.roles && !(c.kind === 'staff' && access.roles.includes(c.role))) return false;
  return !access.anyOf || hasAnyPermission(c.privileges, access.anyOf);
}

/**
 * The merchants: one of each caller's own and one of another agent, shared by every entry (a refused call changes
 * nothing, and what an allowed call changes does not change whose a record is); an entry marked `fresh` gets new ones.
 */
const sharedOwn = new Map<CallerName, World>();
let sharedForeign: World | undefined;

/** Every caller on its own record and on a foreign one: what the entry's rule expects, as failures (none: it holds). */
async function checkEntry(route: string, entry: ObjectEntry): Promise<string[]> {
  expect(routes.get(route), `${route} is not registered`).toBeDefined();
  // Agent-scoped callers first: they are refused on the foreign merchant, so it is unchanged for the next one.
  const order = [...SCOPED_CALLERS, ...CALLER_NAMES.filter((n) => !CALLERS[n].scoped)];
  const foreignOf = async (c: Caller) =>
    entry.fresh && !c.scoped
      ? buildWorld(otherAgent, otherActor)
      : (sharedForeign ??= await buildWorld(otherAgent, otherActor));
  const entryForeign = entry.fresh ? await buildWorld(otherAgent, otherActor) : undefined;
  const failures: string[] = [];
  for (const name of order) {
    const c = CALLERS[name];
    const own = entry.fresh
      ? await buildWorld(c.agentId, c.actor!)
      : (sharedOwn.get(name) ?? sharedOwn.set(name, await buildWorld(c.agentId, c.actor!)).get(name)!);
    const foreign = entryForeign && c.scoped ? entryForeign : await foreignOf(c);
    // The foreign record first: a refused call changes nothing, so the own call still finds what it expects.
    for (const which of ['foreign', 'own'] as const) {
      const target = which === 'own' ? own : foreign;
      const before = await auditCount();
      const res = await call(route, entry.request({ own, target, token: c.token }));
      const where = `${c.label} on the ${which} record → ${res.status} ${JSON.stringify(res.body).slice(0, 240)}`;
      if (res.status >= 500) {
        failures.push(`5xx: ${where}`);
        continue;
      }
      if (!passesGuard(route, c)) {
        if (res.status !== 403) failures.push(`expected the guard's 403: ${where}`);
        continue;
      }
      const namesField = entry.field === undefined || entry.field in (res.body.error?.fields ?? {});
      if (expectedVisible(entry, c, which)) {
        // Allowed: not refused — no 403, and no 404 (or, for an id inside a document, no 400) about the id.
        const refusedStatus = entry.refused?.status ?? 404;
        if (
          res.status === 403 ||
          (res.status === 404 && (entry.field === undefined || namesField)) ||
          (refusedStatus === 400 && res.status === 400 && namesField)
        )
          failures.push(`expected allowed: ${where}`);
        continue;
      }
      if (entry.refusedAs) {
        if (res.status !== 200 || !entry.refusedAs(res.body))
          failures.push(`expected an answer as for a missing record: ${where}`);
        if ((await auditCount()) !== before) failures.push(`a refused call wrote an audit entry: ${where}`);
        continue;
      }
      const status = entry.refused?.status ?? 404;
      const code = status === 404 ? 'not_found' : 'validation_failed';
      if (res.status !== status || res.body.error?.code !== code) failures.push(`expected ${status} ${code}: ${where}`);
      else if (!namesField || (entry.refused?.field && !(entry.refused.field in (res.body.error?.fields ?? {}))))
        failures.push(`expected the field ${entry.field ?? entry.refused?.field} named: ${where}`);
      if ((await auditCount()) !== before) failures.push(`a refused call wrote an audit entry: ${where}`);
    }
  }
  return failures;
}

describe.each(CASES)('%s', (_title, route, entry) => {
  it('each caller: its own record allowed, a foreign one as the owner rules say (404 like a missing one, nothing written)', async () => {
    expect(await checkEntry(route, entry)).toEqual([]);
  });
});

/** The entry of `route` whose description starts with `names`. */
function entryOf(route: string, names: string): ObjectEntry {
  const found = OBJECT_MATRIX[route]?.find((e) => e.names.startsWith(names));
  if (!found) throw new Error(`no entry "${names}…" for ${route}`);
  return found;
}

/*
 * What issue 27 found open, each as a named case of this suite (they fail on the code before the fix): the
 * rows of the table that reproduce it, checked for every caller kind.
 */
describe('issue 27: what was wrong is refused now', () => {
  it("1. uploads: another agent's merchant's signed contract PDF is 404 for a distributor login, an RDC user and a make-token session, like the order", async () => {
    expect(await checkEntry('GET /api/uploads/:id/:token', entryOf('GET /api/uploads/:id/:token', 'upload'))).toEqual(
      [],
    );
    expect(
      await checkEntry(
        'GET /api/customers/contracts/:orderId/:contractId/pdf/:token',
        entryOf('GET /api/customers/contracts/:orderId/:contractId/pdf/:token', 'order'),
      ),
    ).toEqual([]);
  });

  it("2. order documents: an agent-scoped session's order naming another agent's customer or store is refused (400 naming the field)", async () => {
    const route = 'POST /api/customers/orderinfo/:orderInfoId/:token';
    expect(await checkEntry(route, entryOf(route, 'customer inside the order document'))).toEqual([]);
    expect(await checkEntry(route, entryOf(route, 'store inside the order document'))).toEqual([]);
  });

  it("3. payment authorizations: another agent's order and another customer's payment instrument are 404", async () => {
    const route = 'POST /api/paymentauthorizations/:token';
    expect(await checkEntry(route, entryOf(route, 'order'))).toEqual([]);
    expect(await checkEntry(route, entryOf(route, 'payment instrument'))).toEqual([]);
  });

  it("4. jobs: another staff user's job is 404 (its requester and Admin read it)", async () => {
    const route = 'GET /api/jobs/:jobId/:token';
    expect(await checkEntry(route, entryOf(route, 'job'))).toEqual([]);
  });

  it('5. every merchant record an agent-scoped session can reach is its own: customers, stores and their records (the customer area)', async () => {
    for (const route of [
      'GET /api/customers/:id/:token',
      'GET /api/customers/:token',
      'PUT /api/storeinfo/:id/:token',
      'POST /api/customers/stores/:token/:storeId/pushlicense',
      'GET /api/returns/:id/:token',
    ])
      expect(await checkEntry(route, OBJECT_MATRIX[route]![0]!), route).toEqual([]);
  });
});

describe('lists across merchants: an agent-scoped session lists its own merchants only (decision 140)', () => {
  it('customer search, global search, failed transactions, expiring cards, returns and expiring certificates', async () => {
    const db = t.database.db;
    const c = CALLERS.agentStaff;
    const own =
      sharedOwn.get('agentStaff') ??
      sharedOwn.set('agentStaff', await buildWorld(c.agentId, c.actor!)).get('agentStaff')!;
    const foreign = (sharedForeign ??= await buildWorld(otherAgent, otherActor));
    // Cards about to expire and certificates about to lapse, so that the "expiring" lists have both merchants' rows.
    for (const w of [own, foreign]) {
      await db
        .update(paymentInstruments)
        .set({ cardExpMonth: 12, cardExpYear: 2026 })
        .where(eq(paymentInstruments.id, w.instrumentId));
      await db
        .update(taxCertificates)
        .set({ expiresOn: '2026-12-15', revokedAt: null })
        .where(eq(taxCertificates.id, w.certificateId));
    }
    const [ownCustomer] = await db.select().from(customers).where(eq(customers.id, own.customerId));
    const [foreignCustomer] = await db.select().from(customers).where(eq(customers.id, foreign.customerId));
    const [foreignStore] = await db.select().from(stores).where(eq(stores.id, foreign.storeId));
    const get = async (url: string) => {
      const res = await t.request({ method: 'GET', url });
      expect(res.statusCode, `${url}: ${res.body}`).toBe(200);
      return res.json().info as Json;
    };
    const customerIds = (items: Json[]) => items.map((i) => i.customer_id as number);

    for (const [who, token, sees] of [
      ['agent-scoped', c.token, false],
      ['unscoped', CALLERS.admin.token, true],
    ] as const) {
      const byId = await get(`/api/customers/${token}/all?customerid=${foreign.customerId}`);
      expect(customerIds(byId.items).includes(foreign.customerId), `${who}: customer search by id`).toBe(sees);
      const byName = await get(`/api/customers/${token}/all?search=${encodeURIComponent(foreignCustomer!.legalName)}`);
      expect(customerIds(byName.items).includes(foreign.customerId), `${who}: customer search by name`).toBe(sees);
      const byStore = await get(`/api/customers/${token}/all?storeid=${foreign.storeId}`);
      expect(byStore.items.length > 0, `${who}: customer search by store id`).toBe(sees);
      const global = await get(`/api/search/${token}?q=${encodeURIComponent(foreignCustomer!.legalName)}`);
      expect(customerIds(global.customers).includes(foreign.customerId), `${who}: global search, customers`).toBe(sees);
      const storeHits = await get(`/api/search/${token}?q=${encodeURIComponent(foreignStore!.doingBusinessAs)}`);
      expect(customerIds(storeHits.stores).includes(foreign.customerId), `${who}: global search, stores`).toBe(sees);
      const terminal = await get(`/api/search/${token}?q=${foreign.elmerId}`);
      expect(terminal.terminals.length > 0, `${who}: global search, terminals`).toBe(sees);
      const failed = await get(`/api/customers/1/${token}/transactions?fetch=true&status=F&limit=500`);
      expect(
        (failed.items as Json[]).some((x) => x.id === foreign.transactionId),
        `${who}: failed transactions`,
      ).toBe(sees);
      const cards = await get(`/api/customers/paymentinstruments/expiring/${token}?days=60&limit=500`);
      expect(
        (cards.items as Json[]).some((x) => x.instrument_id === foreign.instrumentId),
        `${who}: expiring cards`,
      ).toBe(sees);
      const returned = await get(`/api/returns/${token}?limit=500`);
      expect(
        (returned.items as Json[]).some((x) => x.id === foreign.returnId),
        `${who}: returns`,
      ).toBe(sees);
      const certificates = await get(`/api/taxcertificates/${token}?expiring=60`);
      expect(
        (certificates.items as Json[]).some((x) => x.id === foreign.certificateId),
        `${who}: expiring certificates`,
      ).toBe(sees);
    }
    // The agent-scoped session does find its own merchant in each.
    const mine = await get(`/api/customers/${c.token}/all?search=${encodeURIComponent(ownCustomer!.legalName)}`);
    expect(customerIds(mine.items)).toContain(own.customerId);
    const mineGlobal = await get(`/api/search/${c.token}?q=${own.elmerId}`);
    expect(mineGlobal.terminals.length).toBeGreaterThan(0);
    const myCards = await get(`/api/customers/paymentinstruments/expiring/${c.token}?days=60&limit=500`);
    expect((myCards.items as Json[]).some((x) => x.instrument_id === own.instrumentId)).toBe(true);
    const myReturns = await get(`/api/returns/${c.token}?limit=500`);
    expect((myReturns.items as Json[]).some((x) => x.id === own.returnId)).toBe(true);
  });
});
