import {
  ORDER_STATUS,
  OTHER_IDS,
  PAYMENT_PLAN_KIND,
  PAYMENT_PLAN_TYPE_IDS,
  orderBillingItemEntry,
  orderEntryUnitCents,
  isBillableStoreType,
  orderSaleInvoiceLines,
  orderTotals,
  orderUpfrontCents,
  toCents,
  type OrderDocument,
  type OrderOnboarding,
} from '@pos/domain';
import { and, eq, inArray, sql } from 'drizzle-orm';
import type { AnyServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import {
  billingItems,
  customerBillingItems,
  customerPaymentPlans,
  customers,
  orders,
  paymentInstruments,
  stores,
  terminals,
  type AddressJson,
} from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError, notFound } from '../../http/errors';
import { dataEncryptionKey, decryptAccountNumber, encryptAccountNumber } from '../../lib/account-number-cipher';
import { customerByFederalTaxId, customerMatchVerdict, type StatusChange } from '../orders';
import { createSaleInvoice } from '../billing';
import { giveOrderFilesToStore } from '../store-files';
import { saleTaxCents, taxDayOf } from '../taxes';
import { creditPromotionRewards } from './promotion-rewards';
import { writeSoldBundles } from './sold-bundles';

/*
 * Onboarding (issue 7, decision 083): a Complete order becomes the merchant's records — customer (found by federal
 * tax id or the order's customer, else created), store (the order's existing store, else created), terminals with new
 * elmer ids, the hardware and monthly/yearly plans, billing items and payment instruments, and the store files the
 * order collected (decision 160) — exactly once: the order's `onboarded_at` is set in the same transaction, under the
 * order's row lock, and a second run only reads.
 * An order whose tax id matched a customer its agent may not see (decision 142) is attached to that customer only once
 * staff confirmed the match; rejected → a new customer; still pending → the move to Complete waits (409).
 */

type OrderRow = typeof orders.$inferSelect;

const str = (v: unknown): string => (typeof v === 'string' ? v.trim() : v == null ? '' : String(v));
const day = (d: Date) => d.toISOString().slice(0, 10);

/** The sale invoice's tax line: the rate's own label (GST, HST, …) when it has one, else the state's sales tax. */
function saleTaxLabel(label: string, state: string): string {
  const own = label.trim();
  return own || (state ? `Sales tax (${state.toUpperCase()})` : 'Sales tax');
}

function addMonths(d: Date, months: number): string {
  const x = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth() + months, d.getUTCDate()));
  return day(x);
}

/** "terminal 2 of 3", "terminals 1, 2 and 3 of 3": the order's terminals by their place in it. */
function terminalsNamed(numbers: readonly number[], of: number): string {
  const list =
    numbers.length === 1 ? String(numbers[0]) : `${numbers.slice(0, -1).join(', ')} and ${numbers[numbers.length - 1]}`;
  return `${numbers.length === 1 ? 'terminal' : 'terminals'} ${list} of ${of}`;
}

/** The elmer id of a terminal row id: the demo seed's rule (3,000,000 + id·7 + id mod 7), strictly increasing in id. */
export function elmerIdFor(terminalId: number): string {
  return String(3_000_000 + terminalId * 7 + (terminalId % 7));
}

function address(a: OrderDocument['HomeAddress'], fallbackCountry: string): AddressJson | null {
  if (!a || !str(a.address1)) return null;
  return {
    address1: str(a.address1),
    address2: str(a.address2) || null,
    city: str(a.city),
    state: str(a.state).toUpperCase(),
    zip: str(a.zip).toUpperCase(),
    country: str(a.country) || fallbackCountry,
  };
}

/** What exists for an onboarded order (read back, so a re-run answers the same). */
async function summaryOf(db: Db, order: OrderRow, created: boolean): Promise<OrderOnboarding> {
  const t = await db
    .select({ elmerId: terminals.elmerId })
    .from(terminals)
    .where(eq(terminals.orderId, order.id))
    .orderBy(terminals.id);
  const p = await db
    .select({ id: customerPaymentPlans.id })
    .from(customerPaymentPlans)
    .where(eq(customerPaymentPlans.orderId, order.id))
    .orderBy(customerPaymentPlans.id);
  return {
    order_id: order.id,
    customer_id: order.customerId!,
    store_id: order.storeId!,
    elmer_ids: t.map((x) => x.elmerId),
    plan_ids: p.map((x) => x.id),
    onboarded_at: order.onboardedAt!.toISOString(),
    created,
  };
}

/**
 * Onboard a Complete order once (`db` is the open transaction of the move to Complete, or its own). A second call
 * changes nothing and answers what the first one made.
 */
export async function onboardOrder(ctx: AnyServiceCtx, db: Db, orderId: number): Promise<OrderOnboarding> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId)).for('update');
  if (!order) throw notFound(`Order ${orderId}`);
  if (order.onboardedAt) return summaryOf(db, order, false);
  if (order.status !== ORDER_STATUS.COMPLETE) {
    throw new AppError(
      'conflict',
      `Order ${order.unifiedOrderId} is not Complete: only a completed order is onboarded.`,
    );
  }
  const now = ctx.app.clock.now();
  const doc = order.document as OrderDocument;
  const c = doc.CustomerInfo ?? {};
  const s = doc.StoreInfo ?? {};
  const totals = orderTotals(doc);
  const currency = totals.currency;
  const country = currency === 'CAD' ? 'CA' : 'US';
  const pos = (doc.orderType ?? 'P') === 'P';
  // Complete means installed (decision 150): every terminal of a POS order has the serial Operations entered.
  const terminalCount = pos ? Math.max(0, doc.noOfTerminals ?? 0) : 0;
  const serials = (doc.TerminalSerials ?? []).map(str);
  const unserialed = Array.from({ length: terminalCount }, (_, i) => i + 1).filter((n) => !serials[n - 1]);
  if (unserialed.length > 0)
    throw new AppError(
      'conflict',
      `Order ${order.unifiedOrderId} cannot be completed: ${terminalsNamed(unserialed, terminalCount)} ` +
        `${unserialed.length === 1 ? 'has' : 'have'} no serial number. Enter the serial numbers at Installation.`,
      { terminal_serials: `Enter ${terminalCount} serial number(s).` },
    );

  // Customer: the order's, the one named in the document, or the one with this federal tax id; else a new one.
  const taxId = str(c.federalTaxId) || null;
  const knownId = order.customerId ?? (Number(doc.additionalInfo?.customerID) || null);
  let [customer] = knownId ? await db.select().from(customers).where(eq(customers.id, knownId)) : [];
  // The tax id's customer, unless the order's existing-customer match says otherwise (decision 142).
  let taxIdTaken = false;
  if (!customer && taxId) {
    const found = await customerByFederalTaxId(db, taxId);
    const verdict = found ? await customerMatchVerdict(db, order.id, found.id) : 'attach';
    if (verdict === 'wait')
      throw new AppError(
        'conflict',
        `Order ${order.unifiedOrderId} waits for staff to confirm its existing-customer match (customer ${found!.id}, ` +
          'same federal tax id): confirm it or onboard as a new customer on the order, then complete it.',
      );
    if (verdict === 'attach') customer = found ?? undefined;
    else taxIdTaken = true;
  }
  const legalName =
    str((c as { legalName?: unknown }).legalName) ||
    [c.firstName, c.lastName].map(str).filter(Boolean).join(' ') ||
    str(s.doingBusinessAs);
  const customerCreated = !customer;
  if (!customer) {
    [customer] = await db
      .insert(customers)
      .values({
        legalName,
        title: str(c.title) || null,
        firstName: str(c.firstName) || legalName,
        middleName: str(c.middleName) || null,
        lastName: str(c.lastName) || '',
        phone: str(c.phone) || null,
        email: str(c.email),
        brAcct: str(c.brAcct) || null,
        // Staff rejected the match: the tax id stays the existing customer's (one customer per tax id).
        federalTaxId: taxIdTaken ? null : taxId,
        businessType: str(c.businessType) || null,
        customerCategory: str(c.customerCategory) || 'DISTRIBUTOR',
        customerClass: str(c.customerClass) || 'POS',
        resaleCertificate: str(c.resaleCertificate) || null,
        country,
        currency,
        homeAddress: address(doc.HomeAddress, country),
        billingAddress: address(doc.BillingAddress, country),
        shippingAddress: address(doc.ShippingAddress, country),
        mobileConsent: doc.mobileConsent === 'Y',
        createdAt: now,
        updatedAt: now,
      })
      .returning();
  }

  // The plans sold: the hardware sale plan (POS) and the monthly or yearly plan, whose license is the store's
  // (decision 040): a month or a year from Complete (decision 150).
  const plans = doc.PaymentPlanInfo ?? [];
  const hardwareEntry = plans.find((p) => p.type === PAYMENT_PLAN_KIND.HARDWARE);
  const monthlyEntry = plans.find((p) => p.type === PAYMENT_PLAN_KIND.MONTHLY);
  const yearly = Number(monthlyEntry?.paymentPlanId) === OTHER_IDS.YEARLY_PLAN_ID;
  const licenseExpiresOn = addMonths(now, yearly ? 12 : 1);

  // Store: the order's existing store of this customer, else a new one.
  const storeId = Number(s.customerStoreId) || order.storeId || null;
  let [store] = storeId
    ? await db
        .select()
        .from(stores)
        .where(and(eq(stores.id, storeId), eq(stores.customerId, customer!.id)))
    : [];
  const storeCreated = !store;
  if (!store) {
    const storeAddress = address(s.StoreAddress, country) ?? address(doc.HomeAddress, country);
    if (!storeAddress)
      throw new AppError(
        'validation_failed',
        `Order ${order.unifiedOrderId} has no store address: it cannot be onboarded.`,
        { 'StoreInfo.StoreAddress.address1': 'Required.' },
      );
    [store] = await db
      .insert(stores)
      .values({
        customerId: customer!.id,
        storeName: str(s.storeName) || str(s.doingBusinessAs) || legalName,
        doingBusinessAs: str(s.doingBusinessAs) || legalName,
        brAcct: customer!.brAcct,
        phone: str(s.phone) || null,
        mobilePhone: str(s.mobilePhone) || null,
        kindOfBusiness: str(s.kindOfBusiness) || null,
        storeAddress,
        dbaAddress: s.dbaAddressSameAsLegal === false ? address(s.DbaAddress, country) : null,
        state: storeAddress.state,
        country: storeAddress.country,
        currency,
        salesRep: order.salesRep ?? (str(doc.salesRep) || null),
        licenseExpiresOn,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
  }
  // An existing store's license runs at least to the new plan's expiry (never shortened by a new sale); a store
  // without a sales rep gets the order's (decision 150).
  const storeLicenseBefore = storeCreated ? null : store!.licenseExpiresOn;
  const orderRep = order.salesRep ?? (str(doc.salesRep) || null);
  const moveLicense = !storeCreated && (storeLicenseBefore == null || storeLicenseBefore < licenseExpiresOn);
  const giveRep = !storeCreated && store!.salesRep == null && orderRep != null;
  if (moveLicense || giveRep)
    [store] = await db
      .update(stores)
      .set({
        ...(moveLicense ? { licenseExpiresOn } : {}),
        ...(giveRep ? { salesRep: orderRep } : {}),
        updatedAt: now,
        version: sql`${stores.version} + 1`,
      })
      .where(eq(stores.id, store!.id))
      .returning();

  // Plans: the hardware sale plan (POS) and the monthly or yearly plan.
  const planRows: { id: number; kind: string }[] = [];
  let sale: { taxCents: number; taxLabel: string } | null = null;
  if (pos) {
    const inst = totals.installments;
    // The hardware sale paid upfront carries its tax by the one rule (decision 127): the rate in force today, none
    // for an Arizona store with a valid certificate. Installments are taxed by the billing run on each invoice date.
    const taxed = inst
      ? null
      : await saleTaxCents(db, {
          country: store!.country,
          state: store!.state,
          storeId: store!.id,
          day: taxDayOf(ctx.app, now),
          taxableCents: Math.max(0, totals.subtotalCents - totals.discountCents),
        });
    const saleTax = taxed?.taxCents ?? 0;
    if (taxed) sale = { taxCents: saleTax, taxLabel: saleTaxLabel(taxed.rate.label, store!.state) };
    const [row] = await db
      .insert(customerPaymentPlans)
      .values({
        customerId: customer!.id,
        storeId: store!.id,
        orderId: order.id,
        kind: 'hardware_sale',
        paymentPlanTypeId: Number(hardwareEntry?.paymentPlanId) || PAYMENT_PLAN_TYPE_IDS.hardware_sale,
        planName:
          str(hardwareEntry?.planName) || (inst ? `Hardware on ${inst.count} installments` : 'Hardware paid upfront'),
        term: inst ? inst.count : 0,
        interval: inst ? 1 : 0,
        // What is paid upfront: the sale with its tax, nothing on installments (the one rule; decision 142).
        initialAmountCents: orderUpfrontCents(doc, saleTax),
        recurringAmountCents: inst ? inst.amountCents : 0,
        // The billing run bills installment k of the term from it: principal + 5 % interest (decision 113).
        financedCents: inst ? totals.totalCents : null,
        currency,
        startsOn: day(now),
        nextBillingOn: inst ? addMonths(now, 1) : null,
        createdAt: now,
        updatedAt: now,
      })
      .returning({ id: customerPaymentPlans.id, kind: customerPaymentPlans.kind });
    planRows.push(row!);
  }
  const [service] = await db
    .insert(customerPaymentPlans)
    .values({
      customerId: customer!.id,
      storeId: store!.id,
      orderId: order.id,
      kind: yearly ? 'yearly' : 'monthly',
      paymentPlanTypeId: yearly ? PAYMENT_PLAN_TYPE_IDS.yearly : PAYMENT_PLAN_TYPE_IDS.monthly,
      planName: yearly ? 'Yearly plan' : 'Monthly plan',
      term: yearly ? 12 : 1,
      interval: yearly ? 12 : 1,
      initialAmountCents: 0,
      recurringAmountCents: totals.recurringCents,
      currency,
      startsOn: day(now),
      licenseExpiresOn,
      nextBillingOn: addMonths(now, yearly ? 12 : 1),
      createdAt: now,
      updatedAt: now,
    })
    .returning({ id: customerPaymentPlans.id, kind: customerPaymentPlans.kind });
  planRows.push(service!);

  // Terminals: new ids from the terminals sequence, elmer ids by the one rule, the serials entered at Installation.
  const elmerIds: string[] = [];
  if (terminalCount > 0) {
    const ids = (
      (await db.execute(
        sql`select nextval(pg_get_serial_sequence('terminals', 'id'))::int as id from generate_series(1, ${terminalCount})`,
      )) as unknown as {
        rows: { id: number }[];
      }
    ).rows.map((r) => Number(r.id));
    // The serial numbers Operations entered at Installation (decision 150): each terminal is installed now.
    const values = ids.map((id, i) => {
      const elmerId = elmerIdFor(id);
      elmerIds.push(elmerId);
      const serial = serials[i] ?? '';
      return {
        id,
        elmerId,
        serialNumber: serial || `PENDING-${elmerId}`,
        customerId: customer!.id,
        storeId: store!.id,
        orderId: order.id,
        planId: service!.id,
        status: serial ? 'active' : 'pending',
        installedAt: serial ? now : null,
        createdAt: now,
        updatedAt: now,
      };
    });
    await db.insert(terminals).values(values);
  }

  // Billing items the catalogue knows (one-time ones on the hardware plan, recurring ones on the service plan).
  const entries = (doc.BillingItemInfo ?? [])
    .map((e) => orderBillingItemEntry.safeParse(e))
    .flatMap((r) => (r.success ? [r.data] : []));
  const known = entries.length
    ? new Set(
        (
          await db
            .select({ id: billingItems.id })
            .from(billingItems)
            .where(inArray(billingItems.id, [...new Set(entries.map((e) => e.billingItemId))]))
        ).map((r) => r.id),
      )
    : new Set<number>();
  const itemRows = entries
    .filter((e) => known.has(e.billingItemId) && e.quantity > 0)
    .map((e) => ({
      customerId: customer!.id,
      storeId: store!.id,
      planId: e.recurring ? service!.id : (planRows.find((p) => p.kind === 'hardware_sale')?.id ?? service!.id),
      billingItemId: e.billingItemId,
      quantity: e.quantity,
      // As sold; a marketplace listing sold without a price at §9's fee, as the order's totals count it (158).
      unitPriceCents: orderEntryUnitCents(e.billingItemId, toCents(e.unitPrice)),
      currency,
      startsOn: day(now),
      createdAt: now,
      updatedAt: now,
    }));
  if (itemRows.length) await db.insert(customerBillingItems).values(itemRows);

  // Bundles sold (issue 29 item 4, decision 150): on the service plan at the monthly price they were sold for.
  const bundleIds = await writeSoldBundles(db, doc, {
    customerId: customer!.id,
    storeId: store!.id,
    planId: service!.id,
    currency,
    startsOn: day(now),
    now,
  });

  // Payment instruments: cards by their gateway reference, banks re-encrypted for the customer, cash.
  const key = dataEncryptionKey(ctx.app.config);
  const seen = new Set<string>();
  let instrumentCount = 0;
  for (const m of doc.PaymentInstrumentInfo ?? []) {
    if (m.paymentMethodTypeId == null) continue;
    const isDefault = m.type === PAYMENT_PLAN_KIND.MONTHLY;
    const base = {
      customerId: customer!.id,
      storeId: store!.id,
      nameOnAccount: str(m.nameOnAccount) || legalName,
      isDefault,
      createdAt: now,
      updatedAt: now,
    };
    const reference = str(m.paymentProcessorReference);
    const last4 = str(m.creditCardNumber).slice(-4);
    const encrypted = str((m as { achAccountNumberEncrypted?: unknown }).achAccountNumberEncrypted);
    let row: typeof paymentInstruments.$inferInsert | null = null;
    if (Number(m.paymentMethodTypeId) === OTHER_IDS.CASH_PAYMENT_METHOD_ID) {
      row = { ...base, kind: 'cash' };
    } else if (reference && /^\d{4}$/.test(last4)) {
      const [mm, yyyy] = str(m.expirationDate).split('/');
      const month = Number(mm);
      if (month >= 1 && month <= 12)
        row = {
          ...base,
          kind: 'card',
          cardBrand: str(m.issuer) || null,
          cardLast4: last4,
          cardExpMonth: month,
          cardExpYear: Number(yyyy) || null,
          processorReference: reference,
        };
    } else if (encrypted) {
      const number = decryptAccountNumber(key, -order.id, encrypted);
      row = {
        ...base,
        kind: 'bank',
        bankName: str(m.achBankName) || null,
        routingNumber: str(m.achRoutingNumber) || null,
        institutionNumber: str(m.achInstitutionNumber) || null,
        accountType: str(m.achAccountType) || null,
        accountLast4: number.slice(-4),
        accountNumberEncrypted: encryptAccountNumber(key, customer!.id, number),
      };
    }
    if (!row) continue;
    const identity = `${row.kind}:${row.processorReference ?? row.accountLast4 ?? ''}:${row.routingNumber ?? ''}`;
    if (seen.has(identity)) continue;
    seen.add(identity);
    if (isDefault)
      await db
        .update(paymentInstruments)
        .set({ isDefault: false, updatedAt: now })
        .where(eq(paymentInstruments.customerId, customer!.id));
    await db.insert(paymentInstruments).values(row);
    instrumentCount++;
  }

  // The sale invoice (issue 29, decision 148): a POS sale paid upfront is billed now — type S, due at once, one line
  // per product / bundle / discount and the tax as its own line; the order's card hold pays it after the commit
  // (payments' listener queues the capture against it). Installments keep their I invoices from the billing run.
  // A test or demo store (T, D) is never billed (decision 149): its hardware gets no S invoice, its hold is released.
  const saleLines =
    sale && isBillableStoreType(store!.storeType) ? orderSaleInvoiceLines(doc, sale.taxCents, sale.taxLabel) : [];
  if (sale && saleLines.length > 0)
    await createSaleInvoice(
      db,
      {
        customerId: customer!.id,
        storeId: store!.id,
        planId: planRows.find((p) => p.kind === 'hardware_sale')?.id ?? null,
        orderId: order.id,
        currency,
        issuedOn: taxDayOf(ctx.app, now),
        lines: saleLines,
        taxCents: sale.taxCents,
      },
      now,
      ctx.actor,
      ctx.requestId,
    );

  // Promotion rewards (decision 152): what the order's promotions could not take off its own lines is credited.
  if (isBillableStoreType(store!.storeType))
    await creditPromotionRewards(
      ctx,
      db,
      {
        doc,
        orderId: order.id,
        unifiedOrderId: order.unifiedOrderId,
        customerId: customer!.id,
        storeId: store!.id,
        currency,
        issuedOn: taxDayOf(ctx.app, now),
      },
      now,
    );

  // The store files a new merchant's order collected in the order flow (decision 160) are the store's from now on.
  const storeFileCount = await giveOrderFilesToStore(db, {
    orderId: order.id,
    storeId: store!.id,
    customerId: customer!.id,
    at: now,
    actor: ctx.actor,
    requestId: ctx.requestId,
  });

  const [done] = await db
    .update(orders)
    .set({ customerId: customer!.id, storeId: store!.id, onboardedAt: now, updatedAt: now })
    .where(eq(orders.id, order.id))
    .returning();
  await writeAudit(db, {
    ...ctx.actor,
    at: now,
    action: 'order.onboard',
    entity: 'order',
    entityId: order.id,
    customerId: customer!.id,
    after: {
      customer_id: customer!.id,
      customer_created: customerCreated,
      ...(taxIdTaken ? { federal_tax_id_left_blank: true } : {}),
      store_id: store!.id,
      store_created: storeCreated,
      license_expires_on: store!.licenseExpiresOn,
      ...(storeCreated ? {} : { store_license_expires_on_before: storeLicenseBefore }),
      elmer_ids: elmerIds,
      plan_ids: planRows.map((p) => p.id),
      billing_items: itemRows.length,
      bundles: bundleIds.length,
      payment_instruments: instrumentCount,
      store_files: storeFileCount,
    },
    requestId: ctx.requestId,
  });
  return summaryOf(db, done!, true);
}

/** Onboarding on Complete (decision 083): in the transaction of the move, exactly once. */
export async function onboardingStatusEffects(ctx: AnyServiceCtx, db: Db, change: StatusChange): Promise<void> {
  if (change.to !== ORDER_STATUS.COMPLETE) return;
  await onboardOrder(ctx, db, change.order.id);
}
