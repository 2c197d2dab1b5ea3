import {
  type Address,
  type AddressRecord,
  type CustomerRecord,
  type CustomerStoresInfo,
  type StoreAddressInfo,
  type StoreAddressRequest,
  type StoreRecord,
  type UpdateCustomerRequest,
  type UpdateStoreRequest,
} from '@pos/domain';
import { and, eq, inArray, ne, sql, type SQL } from 'drizzle-orm';
import { withTx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { customers, invoices, salesPersons, stores, terminals, type AddressJson } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError, notFound, versionConflict } from '../../http/errors';
import { isCustomerVisible, isStoreVisible, requireCustomer, viewerOf, visibleCustomersWhere } from '../../access';
import { billingToday } from '../billing';
import { invoiceBalances } from '../ledger';

type CustomerRow = typeof customers.$inferSelect;
type StoreRow = typeof stores.$inferSelect;

const iso = (d: Date | string) => new Date(d).toISOString();
/** Today in the billing time zone (decision 113), YYYY-MM-DD: an open invoice due before it is overdue. */
const todayOf = (ctx: ServiceCtx) => billingToday(ctx.app);

function addressOut(a: AddressJson | null | undefined): AddressRecord | null {
  if (!a) return null;
  return {
    address1: a.address1,
    address2: a.address2 ?? null,
    city: a.city,
    state: a.state,
    zip: a.zip,
    country: a.country,
  };
}

/** The stored form of a validated address (address2 absent → null). */
export function addressIn(a: Address): AddressJson {
  return {
    address1: a.address1,
    address2: a.address2 ? a.address2 : null,
    city: a.city,
    state: a.state,
    zip: a.zip,
    country: a.country,
  };
}

function sameJson(a: unknown, b: unknown): boolean {
  return JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
}

/** A unique-index violation (PostgreSQL 23505), also when the driver wraps it. */
export function isUniqueViolation(err: unknown): boolean {
  for (
    let e = err as { code?: unknown; cause?: unknown } | undefined, i = 0;
    e && i < 5;
    e = e.cause as typeof e, i++
  ) {
    if (e.code === '23505') return true;
  }
  return false;
}

// ── Reads ──────────────────────────────────────────────────────────────────────────────────────────

function storeOut(
  row: StoreRow,
  counts: { active: number; total: number } | undefined,
  openCents: number | undefined,
): StoreRecord {
  return {
    store_id: row.id,
    customer_id: row.customerId,
    store_name: row.storeName,
    doing_business_as: row.doingBusinessAs,
    bracct: row.brAcct,
    sales_rep: row.salesRep,
    sales_person_id: row.salesPersonId,
    account_manager: row.accountManagerUsername,
    phone: row.phone,
    mobile_phone: row.mobilePhone,
    kind_of_business: row.kindOfBusiness,
    address: addressOut(row.storeAddress)!,
    dba_address: addressOut(row.dbaAddress),
    state: row.state,
    country: row.country,
    currency: row.currency,
    status: row.status,
    store_type: row.storeType,
    mid: row.mid,
    license_expires_on: row.licenseExpiresOn,
    active_terminals: counts?.active ?? 0,
    terminals: counts?.total ?? 0,
    open_balance_cents: openCents ?? 0,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    version: row.version,
  };
}

interface OpenBalanceRow {
  storeId: number | null;
  currency: string;
  openCents: number;
  /** The oldest due date before `today` among the invoices still open (overdue), if any. */
  oldestOverdueOn: string | null;
}

/**
 * Open balances by store and currency, from the ledger's view (decision 112) — one grouped statement over the
 * pending invoices `where` selects (the stored status N is the derived one, the ledger check proves it, and only
 * pending invoices have a balance: so a customer with years of paid invoices reads only the open ones).
 */
async function openBalances(db: Db, where: SQL | undefined, today: string | null): Promise<OpenBalanceRow[]> {
  const rows = await db
    .select({
      storeId: invoices.storeId,
      currency: invoices.currency,
      openCents: sql<string>`coalesce(sum(${invoiceBalances.openCents}), 0)::bigint`,
      oldestOverdueOn:
        today === null
          ? sql<null>`null::text`
          : sql<
              string | null
            >`(min(${invoices.dueOn}) filter (where ${invoices.dueOn} < ${today} and ${invoiceBalances.openCents} > 0))::text`,
    })
    .from(invoices)
    .innerJoin(invoiceBalances, eq(invoiceBalances.invoiceId, invoices.id))
    .where(and(where, eq(invoices.status, 'N')))
    .groupBy(invoices.storeId, invoices.currency);
  return rows.map((r) => ({ ...r, openCents: Number(r.openCents) }));
}

function openByStore(rows: readonly OpenBalanceRow[]): Map<number, number> {
  const byStore = new Map<number, number>();
  for (const r of rows) if (r.storeId !== null) byStore.set(r.storeId, (byStore.get(r.storeId) ?? 0) + r.openCents);
  return byStore;
}

/**
 * Store records: one query for the stores, one for their terminal counts, and — unless the caller read them
 * already (the customer record) — one for their open balances.
 */
async function storeRecords(
  db: Db,
  where: SQL | undefined,
  balances?: ReadonlyMap<number, number>,
): Promise<StoreRecord[]> {
  const rows = await db.select().from(stores).where(where).orderBy(stores.id);
  if (rows.length === 0) return [];
  const ids = rows.map((r) => r.id);
  const counts = await db
    .select({
      storeId: terminals.storeId,
      active: sql<number>`(count(*) filter (where ${terminals.status} = 'active'))::int`,
      total: sql<number>`count(*)::int`,
    })
    .from(terminals)
    .where(inArray(terminals.storeId, ids))
    .groupBy(terminals.storeId);
  const byStore = new Map(counts.map((c) => [c.storeId, { active: Number(c.active), total: Number(c.total) }]));
  const open = balances ?? openByStore(await openBalances(db, inArray(invoices.storeId, ids), null));
  return rows.map((r) => storeOut(r, byStore.get(r.id), open.get(r.id)));
}

export async function getStoreRecord(db: Db, storeId: number): Promise<StoreRecord | undefined> {
  return (await storeRecords(db, eq(stores.id, storeId)))[0];
}

function customerOut(
  row: CustomerRow,
  salesPerson: CustomerRecord['sales_person'],
  storeList: StoreRecord[],
  balances: readonly OpenBalanceRow[],
): CustomerRecord {
  const byCurrency = new Map<string, number>();
  for (const b of balances) byCurrency.set(b.currency, (byCurrency.get(b.currency) ?? 0) + b.openCents);
  const overdue = balances.map((b) => b.oldestOverdueOn).filter((d): d is string => d !== null);
  return {
    customer_id: row.id,
    legal_name: row.legalName,
    title: row.title,
    first_name: row.firstName,
    middle_name: row.middleName,
    last_name: row.lastName,
    phone: row.phone,
    email: row.email,
    bracct: row.brAcct,
    federal_tax_id: row.federalTaxId,
    ofa_customer_id: row.ofaCustomerId,
    oasis_id: row.oasisId,
    business_type: row.businessType,
    customer_category: row.customerCategory,
    customer_class: row.customerClass,
    resale_certificate: row.resaleCertificate,
    country: row.country,
    currency: row.currency,
    status: row.status,
    home_address: addressOut(row.homeAddress),
    billing_address: addressOut(row.billingAddress),
    shipping_address: addressOut(row.shippingAddress),
    account_manager: row.accountManagerUsername,
    sales_person: salesPerson,
    mobile_consent: row.mobileConsent,
    created_at: iso(row.createdAt),
    updated_at: iso(row.updatedAt),
    version: row.version,
    stores: storeList,
    open_balances: [...byCurrency]
      .filter(([, cents]) => cents > 0)
      .map(([currency, open_cents]) => ({ currency, open_cents }))
      .sort((a, b) => (a.currency === row.currency ? -1 : b.currency === row.currency ? 1 : 0)),
    oldest_overdue_on: overdue.length > 0 ? overdue.reduce((a, b) => (a < b ? a : b)) : null,
  };
}

/**
 * The customer record with its sales person, stores and what it owes (four queries: customer, stores, terminal
 * counts, the open balances of its pending invoices by store and currency). `today` (YYYY-MM-DD): overdue is due
 * before it.
 */
export async function findCustomerRecord(
  db: Db,
  customerId: number,
  today: string,
): Promise<CustomerRecord | undefined> {
  const [row] = await db
    .select({
      customer: customers,
      sp: { id: salesPersons.id, name: salesPersons.name, email: salesPersons.email, phone: salesPersons.phone },
    })
    .from(customers)
    .leftJoin(salesPersons, eq(salesPersons.id, customers.salesPersonId))
    .where(eq(customers.id, customerId));
  if (!row) return undefined;
  const balances = await openBalances(db, eq(invoices.customerId, customerId), today);
  const storeList = await storeRecords(db, eq(stores.customerId, customerId), openByStore(balances));
  return customerOut(row.customer, row.sp, storeList, balances);
}

export async function getCustomerRecord(ctx: ServiceCtx, customerId: number): Promise<CustomerRecord> {
  const db = ctx.app.database.db;
  // Another agent's merchant is answered like a missing one (decision 140).
  const record = (await isCustomerVisible(db, viewerOf(ctx), customerId))
    ? await findCustomerRecord(db, customerId, todayOf(ctx))
    : undefined;
  if (!record) throw notFound(`Customer ${customerId}`);
  return record;
}

/** GET /api/customers/{id}/customerstores/{token}?cust_store_id= */
export async function listCustomerStores(
  ctx: ServiceCtx,
  input: { customerId: number; storeId?: number },
): Promise<CustomerStoresInfo> {
  const db = ctx.app.database.db;
  await requireCustomer(db, viewerOf(ctx), input.customerId);
  if (input.storeId === undefined) return { stores: await storeRecords(db, eq(stores.customerId, input.customerId)) };
  const list = await storeRecords(db, and(eq(stores.id, input.storeId), eq(stores.customerId, input.customerId)));
  if (list.length === 0) throw notFound(`Store ${input.storeId} of customer ${input.customerId}`);
  return { stores: list };
}

/**
 * GET /api/customers/{token}?fedtaxid= — US EINs are stored NN-NNNNNNN, Canadian numbers as 9 digits. A customer the
 * session may not see is answered as missing (decisions 140, 142): an agent's order for that tax id then waits for
 * staff to confirm the existing-customer match instead.
 */
export async function findCustomerIdByFederalTaxId(
  ctx: ServiceCtx,
  fedTaxId: string,
): Promise<{ customer_id: number }> {
  const [row] = await ctx.app.database.db
    .select({ id: customers.id })
    .from(customers)
    .where(
      and(inArray(customers.federalTaxId, [fedTaxId, fedTaxId.replace('-', '')]), visibleCustomersWhere(viewerOf(ctx))),
    )
    .orderBy(customers.id)
    .limit(1);
  if (!row) throw notFound(`A customer with federal tax id ${fedTaxId}`);
  return { customer_id: row.id };
}

// ── Edits ──────────────────────────────────────────────────────────────────────────────────────────

/** Before/after of the fields that really change (wire names), each with `customer_id` on top. */
function diff(
  customerId: number,
  pairs: ReadonlyArray<readonly [field: string, before: unknown, after: unknown]>,
): { before: Record<string, unknown>; after: Record<string, unknown>; changed: string[] } {
  const before: Record<string, unknown> = { customer_id: customerId };
  const after: Record<string, unknown> = { customer_id: customerId };
  const changed: string[] = [];
  for (const [field, b, a] of pairs) {
    if (a === undefined || sameJson(a, b)) continue;
    before[field] = b ?? null;
    after[field] = a;
    changed.push(field);
  }
  return { before, after, changed };
}

/** PUT /api/storeinfo/{id}/{token}: edit store fields (optimistic concurrency, audited). */
export async function updateStore(
  ctx: ServiceCtx,
  input: { storeId: number; body: UpdateStoreRequest },
): Promise<StoreRecord> {
  const b = input.body;
  return withTx(ctx, async (db) => {
    const [row] = await db.select().from(stores).where(eq(stores.id, input.storeId)).for('update');
    if (!row || !(await isStoreVisible(db, viewerOf(ctx), row.id))) throw notFound(`Store ${input.storeId}`);
    if (row.version !== b.version) throw versionConflict(`Store ${row.id}`, await getStoreRecord(db, row.id));
    const d = diff(row.customerId, [
      ['store_name', row.storeName, b.store_name],
      ['doing_business_as', row.doingBusinessAs, b.doing_business_as],
      ['phone', row.phone, b.phone],
      ['mobile_phone', row.mobilePhone, b.mobile_phone],
      ['kind_of_business', row.kindOfBusiness, b.kind_of_business],
      ['sales_rep', row.salesRep, b.sales_rep],
      ['account_manager', row.accountManagerUsername, b.account_manager],
      ['store_type', row.storeType, b.store_type],
      ['status', row.status, b.status],
    ]);
    if (d.changed.length > 0) {
      await db
        .update(stores)
        .set({
          ...(b.store_name !== undefined && { storeName: b.store_name }),
          ...(b.doing_business_as !== undefined && { doingBusinessAs: b.doing_business_as }),
          ...(b.phone !== undefined && { phone: b.phone }),
          ...(b.mobile_phone !== undefined && { mobilePhone: b.mobile_phone }),
          ...(b.kind_of_business !== undefined && { kindOfBusiness: b.kind_of_business }),
          ...(b.sales_rep !== undefined && { salesRep: b.sales_rep }),
          ...(b.account_manager !== undefined && { accountManagerUsername: b.account_manager }),
          ...(b.store_type !== undefined && { storeType: b.store_type }),
          ...(b.status !== undefined && { status: b.status }),
          updatedAt: ctx.app.clock.now(),
          version: sql`${stores.version} + 1`,
        })
        .where(eq(stores.id, row.id));
      await writeAudit(db, {
        ...ctx.actor,
        at: ctx.app.clock.now(),
        action: 'store_update',
        entity: 'store',
        entityId: row.id,
        before: { ...d.before, store_id: row.id },
        after: { ...d.after, store_id: row.id },
        requestId: ctx.requestId,
      });
    }
    return (await getStoreRecord(db, row.id))!;
  });
}

/** PUT /api/customerinfo/{id}/{token}: edit customer fields (optimistic concurrency, audited). */
export async function updateCustomer(
  ctx: ServiceCtx,
  input: { customerId: number; body: UpdateCustomerRequest },
): Promise<CustomerRecord> {
  const b = input.body;
  try {
    return await withTx(ctx, async (db) => {
      const [row] = await db.select().from(customers).where(eq(customers.id, input.customerId)).for('update');
      if (!row || !(await isCustomerVisible(db, viewerOf(ctx), row.id))) throw notFound(`Customer ${input.customerId}`);
      if (row.version !== b.version)
        throw versionConflict(`Customer ${row.id}`, await findCustomerRecord(db, row.id, todayOf(ctx)));

      const fields: Record<string, string> = {};
      const home = b.home_address && addressIn(b.home_address);
      const billing = b.billing_address && addressIn(b.billing_address);
      const shipping = b.shipping_address && addressIn(b.shipping_address);
      for (const [key, a] of [
        ['home_address', home],
        ['billing_address', billing],
        ['shipping_address', shipping],
      ] as const) {
        if (a && a.country !== row.country)
          fields[`${key}.country`] = `Addresses of this customer are in ${row.country}.`;
      }
      // Canadian business numbers are kept as 9 digits, US EINs as NN-NNNNNNN (as the order flow stores them).
      const taxId =
        b.federal_tax_id === undefined
          ? undefined
          : row.country === 'CA'
            ? b.federal_tax_id.replace('-', '')
            : b.federal_tax_id;
      if (b.sales_person_id) {
        const [sp] = await db
          .select({ id: salesPersons.id })
          .from(salesPersons)
          .where(eq(salesPersons.id, b.sales_person_id));
        if (!sp) fields.sales_person_id = `There is no sales person ${b.sales_person_id}.`;
      }
      if (Object.keys(fields).length > 0) {
        throw new AppError('validation_failed', `Please correct the request (${Object.values(fields)[0]}).`, fields);
      }
      if (taxId !== undefined && taxId !== row.federalTaxId) {
        const forms = [
          taxId,
          taxId.replace('-', ''),
          taxId.length === 9 ? `${taxId.slice(0, 2)}-${taxId.slice(2)}` : taxId,
        ];
        const [other] = await db
          .select({ id: customers.id })
          .from(customers)
          .where(and(inArray(customers.federalTaxId, forms), ne(customers.id, row.id)))
          .limit(1);
        if (other) throw duplicateTaxId(other.id);
      }

      const d = diff(row.id, [
        ['legal_name', row.legalName, b.legal_name],
        ['title', row.title, b.title],
        ['first_name', row.firstName, b.first_name],
        ['middle_name', row.middleName, b.middle_name],
        ['last_name', row.lastName, b.last_name],
        ['phone', row.phone, b.phone],
        ['email', row.email, b.email],
        ['federal_tax_id', row.federalTaxId, taxId],
        ['business_type', row.businessType, b.business_type],
        ['resale_certificate', row.resaleCertificate, b.resale_certificate],
        ['home_address', addressOut(row.homeAddress), home],
        ['billing_address', addressOut(row.billingAddress), billing],
        ['shipping_address', addressOut(row.shippingAddress), shipping],
        ['account_manager', row.accountManagerUsername, b.account_manager],
        ['sales_person_id', row.salesPersonId, b.sales_person_id],
        ['mobile_consent', row.mobileConsent, b.mobile_consent],
        ['status', row.status, b.status],
      ]);
      if (d.changed.length > 0) {
        await db
          .update(customers)
          .set({
            ...(b.legal_name !== undefined && { legalName: b.legal_name }),
            ...(b.title !== undefined && { title: b.title }),
            ...(b.first_name !== undefined && { firstName: b.first_name }),
            ...(b.middle_name !== undefined && { middleName: b.middle_name }),
            ...(b.last_name !== undefined && { lastName: b.last_name }),
            ...(b.phone !== undefined && { phone: b.phone }),
            ...(b.email !== undefined && { email: b.email }),
            ...(taxId !== undefined && { federalTaxId: taxId }),
            ...(b.business_type !== undefined && { businessType: b.business_type }),
            ...(b.resale_certificate !== undefined && { resaleCertificate: b.resale_certificate }),
            ...(home && { homeAddress: home }),
            ...(billing && { billingAddress: billing }),
            ...(shipping && { shippingAddress: shipping }),
            ...(b.account_manager !== undefined && { accountManagerUsername: b.account_manager }),
            ...(b.sales_person_id !== undefined && { salesPersonId: b.sales_person_id }),
            ...(b.mobile_consent !== undefined && { mobileConsent: b.mobile_consent }),
            ...(b.status !== undefined && { status: b.status }),
            updatedAt: ctx.app.clock.now(),
            version: sql`${customers.version} + 1`,
          })
          .where(eq(customers.id, row.id));
        await writeAudit(db, {
          ...ctx.actor,
          at: ctx.app.clock.now(),
          action: 'customer_update',
          entity: 'customer',
          entityId: row.id,
          before: d.before,
          after: d.after,
          requestId: ctx.requestId,
        });
      }
      return (await findCustomerRecord(db, row.id, todayOf(ctx)))!;
    });
  } catch (err) {
    // Two edits racing to the same federal tax id: the unique index decides.
    if (isUniqueViolation(err)) throw duplicateTaxId(null);
    throw err;
  }
}

function duplicateTaxId(otherId: number | null): AppError {
  return new AppError(
    'conflict',
    otherId === null
      ? 'Another customer already has this federal tax id.'
      : `Customer ${otherId} already has this federal tax id.`,
    { federal_tax_id: 'Another customer already has this federal tax id.' },
  );
}

/**
 * POST /api/customers/{id}/customerstores/address/{token} (decision 052).
 * With customer_store_id: replace that store's address (same country; state follows; a DBA address that was
 * the same as the store address follows too; the geocoded form is cleared). Without: open a new store.
 */
export async function saveStoreAddress(
  ctx: ServiceCtx,
  input: { customerId: number; body: StoreAddressRequest },
): Promise<StoreAddressInfo> {
  const b = input.body;
  const address = addressIn(b.address);
  return withTx(ctx, async (db) => {
    const customer = await requireCustomer(db, viewerOf(ctx), input.customerId);
    const now = ctx.app.clock.now();
    const audit = { ...ctx.actor, at: now, entity: 'store', requestId: ctx.requestId };

    if (b.customer_store_id !== undefined) {
      const [row] = await db
        .select()
        .from(stores)
        .where(and(eq(stores.id, b.customer_store_id), eq(stores.customerId, customer.id)))
        .for('update');
      if (!row || !(await isStoreVisible(db, viewerOf(ctx), row.id)))
        throw notFound(`Store ${b.customer_store_id} of customer ${customer.id}`);
      if (row.version !== b.version) throw versionConflict(`Store ${row.id}`, await getStoreRecord(db, row.id));
      if (address.country !== row.country) {
        const message = `This store is in ${row.country}; a store cannot move to another country (open a new store instead).`;
        throw new AppError('validation_failed', message, { 'address.country': message });
      }
      if (sameJson(addressOut(row.storeAddress), address)) return { customer_store_id: row.id, version: row.version };
      const dbaFollows = row.dbaAddress !== null && sameJson(addressOut(row.dbaAddress), addressOut(row.storeAddress));
      const [updated] = await db
        .update(stores)
        .set({
          storeAddress: address,
          ...(dbaFollows && { dbaAddress: address }),
          geocodedAddress: null,
          state: address.state,
          updatedAt: now,
          version: sql`${stores.version} + 1`,
        })
        .where(eq(stores.id, row.id))
        .returning({ version: stores.version });
      await writeAudit(db, {
        ...audit,
        action: 'store_address_update',
        entityId: row.id,
        before: { customer_id: customer.id, store_id: row.id, address: addressOut(row.storeAddress) },
        after: { customer_id: customer.id, store_id: row.id, address },
      });
      return { customer_store_id: row.id, version: updated!.version };
    }

    if (address.country !== customer.country) {
      const message = `This customer is in ${customer.country}; its new store must be too.`;
      throw new AppError('validation_failed', message, { 'address.country': message });
    }
    const [owner] = await db
      .select({ salesPersonId: customers.salesPersonId, accountManager: customers.accountManagerUsername })
      .from(customers)
      .where(eq(customers.id, customer.id));
    const dba = b.doing_business_as!;
    const [created] = await db
      .insert(stores)
      .values({
        customerId: customer.id,
        storeName: b.store_name ?? dba,
        doingBusinessAs: dba,
        storeAddress: address,
        dbaAddress: address,
        state: address.state,
        country: customer.country,
        currency: customer.currency,
        salesPersonId: owner?.salesPersonId ?? null,
        accountManagerUsername: owner?.accountManager ?? null,
        status: 'pending',
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: stores.id, version: stores.version, storeName: stores.storeName });
    await writeAudit(db, {
      ...audit,
      action: 'store_create',
      entityId: created!.id,
      after: {
        customer_id: customer.id,
        store_id: created!.id,
        store_name: created!.storeName,
        doing_business_as: dba,
        address,
        status: 'pending',
      },
    });
    return { customer_store_id: created!.id, version: created!.version };
  });
}
