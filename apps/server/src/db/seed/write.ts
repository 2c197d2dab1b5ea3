import { sql } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import { freezeBundlePricesSql } from '../bundle-prices.sql';
import {
  agentOrders,
  agentStores,
  auditLog,
  contracts,
  creditMemos,
  customerBillingItems,
  customerBundles,
  customerNotes,
  customerPaymentPlans,
  customers,
  invoiceLines,
  invoiceDunning,
  invoices,
  orderNotes,
  orderPromotions,
  orderStatusHistory,
  orders,
  paymentInstruments,
  promotions,
  promotionBillingItems,
  receiptAllocations,
  receipts,
  referrals,
  returns,
  salesHistory,
  storeEmails,
  stores,
  taxCertificates,
  terminals,
  transactions,
  writeOffs,
  localGatewayOperations,
} from '../schema';
import { insertMany, resetSequence } from './bulk';
import {
  DEMO_SEED,
  DEMO_SEED_VERSION,
  iso,
  type DemoRun,
  type DemoBilling,
  type DemoExtras,
  type DemoMerchants,
  type DemoOrders,
  type DemoPlans,
} from './demo-run';

export type DemoRows = DemoMerchants &
  DemoPlans &
  DemoBilling &
  DemoOrders &
  DemoExtras & {
    instrumentRows: PgInsertValue<typeof paymentInstruments>[];
    memoRows: PgInsertValue<typeof creditMemos>[];
    writeOffRows: PgInsertValue<typeof writeOffs>[];
    terminalRows: PgInsertValue<typeof terminals>[];
    returnRows: PgInsertValue<typeof returns>[];
  };

/** Write what the parts planned, parents first. */
export async function writeDemoRows(run: DemoRun, rows: DemoRows): Promise<void> {
  const { db, log, anchor } = run;
  const {
    customerGens,
    storeGens,
    emailRows,
    customerNoteRows,
    agentStoreRows,
    promoRows,
    referralRows,
    orderRows,
    historyRows,
    noteRows,
    contractRows,
    agentOrderRows,
    orderPromoRows,
    planRows,
    terminalRows,
    cbiRows,
    bundleRows,
    instrumentRows,
    invoiceRows,
    lineRows,
    txRows,
    dunningRows,
    receiptRows,
    allocationRows,
    memoRows,
    writeOffRows,
    returnRows,
    salesHistoryRows,
    taxCertRows,
  } = rows;
  // ── write, parents first ────────────────────────────────────────────────────────────────────────
  await insertMany(
    db,
    customers,
    customerGens.map((c) => c.values),
  );
  await insertMany(
    db,
    stores,
    storeGens.map((s) => s.values),
  );
  log(`demo seed: ${customerGens.length} customers, ${storeGens.length} stores`);
  await insertMany(db, storeEmails, emailRows);
  await insertMany(db, customerNotes, customerNoteRows);
  await insertMany(db, agentStores, agentStoreRows);
  await insertMany(db, promotions, promoRows);
  await insertMany(
    db,
    promotionBillingItems,
    promoRows.flatMap((p) =>
      p.billingItemId == null ? [] : [{ promotionId: p.id as number, billingItemId: p.billingItemId as number }],
    ),
  );
  await db.insert(referrals).values(referralRows).onConflictDoNothing();
  await insertMany(db, orders, orderRows);
  await insertMany(db, orderStatusHistory, historyRows);
  await insertMany(db, orderNotes, noteRows);
  await insertMany(db, contracts, contractRows);
  await insertMany(db, agentOrders, agentOrderRows);
  await insertMany(db, orderPromotions, orderPromoRows);
  log(`demo seed: ${orderRows.length} orders, ${historyRows.length} status changes, ${noteRows.length} notes`);
  await insertMany(db, customerPaymentPlans, planRows);
  await insertMany(db, terminals, terminalRows);
  await insertMany(db, customerBillingItems, cbiRows);
  await insertMany(db, customerBundles, bundleRows);
  await db.execute(freezeBundlePricesSql());
  await insertMany(db, paymentInstruments, instrumentRows);
  log(`demo seed: ${planRows.length} payment plans, ${terminalRows.length} terminals`);
  await insertMany(db, invoices, invoiceRows);
  // The product numbers each year's invoices after the demo's (one format, decision 156: INV-2026-0004118).
  await db.execute(
    sql.raw(`insert into invoice_number_counters (year, last_number)
             select extract(year from issued_on)::integer, max(id) from invoices group by 1
             on conflict (year) do update
               set last_number = greatest(invoice_number_counters.last_number, excluded.last_number)`),
  );
  await insertMany(db, invoiceLines, lineRows);
  await insertMany(db, transactions, txRows);
  // The local gateway knows the demo's settled card charges of hardware sales, so a return's refund to the card of a
  // demo sale goes through (decision 122); other demo charges stay unknown to it, as before.
  const saleIds = new Set(invoiceRows.filter((i) => i.type === 'S').map((i) => i.id));
  await insertMany(
    db,
    localGatewayOperations,
    txRows
      .filter(
        (t) =>
          t.kind === 'charge' &&
          t.status === 'S' &&
          saleIds.has(t.invoiceId as number) &&
          typeof t.gatewayReference === 'string' &&
          t.gatewayReference.startsWith('ch_'),
      )
      .map((t) => ({
        idempotencyKey: `demo:${t.gatewayReference as string}`,
        operation: 'charge',
        reference: t.gatewayReference as string,
        amountCents: t.amountCents as number,
        currency: t.currency as string,
        instrumentKind: 'card',
        status: 'succeeded',
        createdAt: t.attemptedAt as Date,
      })),
  );
  await insertMany(db, invoiceDunning, dunningRows);
  await insertMany(db, receipts, receiptRows);
  await insertMany(db, receiptAllocations, allocationRows);
  await insertMany(db, creditMemos, memoRows);
  await insertMany(db, writeOffs, writeOffRows);
  await insertMany(db, returns, returnRows);
  await insertMany(db, salesHistory, salesHistoryRows);
  await insertMany(db, taxCertificates, taxCertRows);
  log(`demo seed: ${invoiceRows.length} invoices, ${txRows.length} transactions, ${memoRows.length} credit memos`);
  // Products carry their catalogue ids (1 terminal, 2 Petro …); everything else took reserved ids.
  await resetSequence(db, 'products');
  await db.insert(auditLog).values({
    actorType: 'system',
    action: 'seed',
    entity: 'demo_data',
    entityId: String(DEMO_SEED_VERSION),
    after: { seed: DEMO_SEED, month: iso(anchor) },
  });
}
