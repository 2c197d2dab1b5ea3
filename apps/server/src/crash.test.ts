import { randomUUID } from 'node:crypto';
import { BILLING_ITEM_IDS, blankOrder } from '@pos/domain';
import { and, asc, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './db/client';
import {
  createCustomer,
  createInvoice,
  createPaymentInstrument,
  createPaymentPlan,
  createStore,
  ensureBillingItems,
  setTaxRate,
  type PaymentPlanRow,
} from './db/factories';
import {
  auditLog,
  billingRuns,
  idempotencyKeys,
  invoiceBalances,
  invoices,
  orderStatusHistory,
  orders,
  paymentInstruments,
  receiptAllocations,
  receipts,
  transactions,
} from './db/schema';
import type { LocalGateway } from './integrations/gateway';
import type { FaultPoint } from './lib/fault-point';
import { billingToday } from './modules/billing';
import { ledgerMismatchesSql } from './modules/ledger';
import { chargeInvoice, sweepPayments } from './modules/payments';
import { createTestDatabase } from './test/db-template';
import { completeOrder } from './test/orders';
import { call, killAll, reached, startServer, startWorker, until } from './test/processes';
import { signInStaff } from './test/sign-in';
import { createTestApp, type TestApp } from './test/test-app';

/*
 * Issue 19 part 4, crash tests (decision 134). A real server (main.ts) or worker (worker.ts) process is stopped at
 * a named fault point (TEST_FAULT_POINT, lib/fault-point.ts: inside a transaction before its commit, or between
 * two commits) and SIGKILLed there; then a new process is started and the work is done again. Afterwards: no
 * duplicate and no missing invoice, nothing half-written, the job not lost, the ledger consistent.
 * The charge killed mid-call (the gateway took it, we had not recorded its answer) is
 * modules/payments/charge-crash.test.ts: one S, one charge at the gateway after the restart.
 *
 * PostgreSQL only: the processes share the test's database, which PGlite (one process's embedded database)
 * cannot. CI runs the server tests a second time on PostgreSQL, where these run.
 */

let database: Database;
let t: TestApp;
let tok: Record<'admin' | 'ar' | 'sales', string>;

async function ledgerMismatches(): Promise<unknown[]> {
  return ((await database.db.execute(ledgerMismatchesSql(20))) as unknown as { rows: unknown[] }).rows;
}

const jobState = async (jobId: string) =>
  (await database.query<{ state: string }>(`select state from pgboss.job where id = $1`, [jobId]))[0]?.state;

describe.skipIf(!process.env.TEST_DATABASE_URL)(
  'crash tests (PostgreSQL only — skipped on PGlite: the killed processes must share one PostgreSQL database)',
  () => {
    beforeAll(async () => {
      database = await createTestDatabase();
      t = await createTestApp({
        database,
        config: { jobsInlineWorkers: false, payments: { retryDays: [3, 7, 14], reconcileAfterSeconds: 0 } },
      });
      // The processes run on the real clock: so do the sessions made here.
      t.clock.set(new Date());
      tok = await signInStaff(t, { admin: 'Admin', ar: 'AR Team', sales: { role: 'RAM', email: 'ram@example.com' } });
      await ensureBillingItems(database.db, [BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE]);
    }, 60_000);
    afterAll(async () => {
      await killAll();
      await t.close();
      await database.close();
    });

    describe.each([
      ['inside a batch, before its commit', 'billing-run:batch-uncommitted', '2030-02-20'],
      ['after a batch committed, before the run is done', 'billing-run:batch-committed', '2030-02-21'],
    ] as const)('a billing run: the worker killed %s', (_, point: FaultPoint, asOf) => {
      it('the job is not lost; its retry bills every due plan exactly once; the ledger holds', async () => {
        const plans: PaymentPlanRow[] = [];
        for (let i = 0; i < 3; i++) {
          const store = await createStore(database.db, { country: 'US' });
          await setTaxRate(database.db, { country: 'US', state: store.state.toUpperCase(), rateBasisPoints: 600 });
          plans.push(
            await createPaymentPlan(database.db, {
              storeId: store.id,
              kind: 'monthly',
              startsOn: '2029-12-01',
              nextBillingOn: asOf,
            }),
          );
        }
        const invoicesOfPlans = () =>
          database.db
            .select()
            .from(invoices)
            .where(sql`${invoices.planId} in ${plans.map((p) => p.id)} and ${invoices.periodStart} = ${asOf}::date`)
            .orderBy(asc(invoices.planId));

        const worker = await startWorker(database, { faultPoint: point });
        const res = await t.request({
          method: 'POST',
          url: `/api/billing/runs/${tok.admin}`,
          payload: { as_of: asOf },
        });
        expect(res.statusCode, res.body).toBe(202);
        const { run_id: runId, job_id: jobId } = res.json().info as { run_id: number; job_id: string };
        await reached(worker, point);
        await worker.kill();

        // Killed: the job is still active (its worker never finished it); what committed is whole.
        expect(await jobState(jobId)).toBe('active');
        expect(await invoicesOfPlans()).toHaveLength(point === 'billing-run:batch-uncommitted' ? 0 : 3);
        const [killed] = await database.db.select().from(billingRuns).where(eq(billingRuns.id, runId));
        expect(killed).toMatchObject({
          status: 'running',
          plansDone: point === 'billing-run:batch-uncommitted' ? 0 : 3,
        });
        expect(await ledgerMismatches()).toEqual([]);

        // An hour on, pg-boss's maintenance fails the job of the dead worker by its expiry and retries it; the test
        // does that step now (the state pg-boss's expiry gives it) instead of waiting the hour.
        await database.query(`update pgboss.job set state = 'retry', start_after = now() where id = $1`, [jobId]);
        const restarted = await startWorker(database);
        await until(async () => (await jobState(jobId)) === 'completed', 30_000, 'the retried billing run job');
        await restarted.kill();

        const [run] = await database.db.select().from(billingRuns).where(eq(billingRuns.id, runId));
        expect(run).toMatchObject({ status: 'done', plansDue: 3, plansDone: 3, invoicesCreated: 3 });
        const billed = await invoicesOfPlans();
        expect(billed.map((i) => i.planId)).toEqual(plans.map((p) => p.id));
        expect(new Set(billed.map((i) => i.invoiceNumber)).size).toBe(3);
        expect(await ledgerMismatches()).toEqual([]);
      }, 90_000);
    });

    it('a receipt application: the server killed inside its transaction → nothing applied; the same request with its key applies once after the restart', async () => {
      const customer = await createCustomer(database.db, { country: 'US' });
      const store = await createStore(database.db, { customerId: customer.id, country: 'US' });
      const invoice = await createInvoice(database.db, {
        customerId: customer.id,
        storeId: store.id,
        currency: 'USD',
        lines: [{ billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, unitCents: 80_00 }],
      });
      const recorded = await t.request({
        method: 'POST',
        url: `/api/receipts/${tok.ar}`,
        payload: {
          customer_id: customer.id,
          store_id: store.id,
          method: 'wire',
          reference: 'WIRE-CRASH-1',
          amount_cents: 100_00,
          currency: 'USD',
          // The billing day (America/New_York): at 00:06 UTC it is still yesterday there.
          received_on: billingToday(t.app.ctx),
        },
        headers: { 'idempotency-key': randomUUID() },
      });
      expect(recorded.statusCode, recorded.body).toBe(201);
      const receipt = recorded.json().info.receipt as { id: number; version: number };
      const key = `crash-apply-${receipt.id}`;
      const apply = (baseUrl: string) =>
        call(
          baseUrl,
          'POST',
          `/api/receipts/${receipt.id}/applications/${tok.ar}`,
          { version: receipt.version, applications: [{ invoice_id: invoice.id, amount_cents: 80_00 }] },
          { 'idempotency-key': key },
        );

      const server = await startServer(database, { faultPoint: 'receipt-apply:uncommitted' });
      const inFlight = apply(server.baseUrl);
      await reached(server, 'receipt-apply:uncommitted');
      await server.kill();
      expect(await inFlight).toBeNull();

      // Nothing of the application was written; the key is claimed without an answer.
      expect(
        await database.db.select().from(receiptAllocations).where(eq(receiptAllocations.receiptId, receipt.id)),
      ).toEqual([]);
      const [kept] = await database.db.select().from(receipts).where(eq(receipts.id, receipt.id));
      expect(kept).toMatchObject({ unappliedCents: 100_00, version: receipt.version });
      const [balance] = await database.db
        .select()
        .from(invoiceBalances)
        .where(eq(invoiceBalances.invoiceId, invoice.id));
      expect(balance).toMatchObject({ openCents: 80_00, paidCents: 0 });
      const [claimed] = await database.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.key, key));
      expect(claimed).toMatchObject({ responseStatus: null });
      expect(await ledgerMismatches()).toEqual([]);

      const restarted = await startServer(database);
      // While the crashed request's lock lasts (IDEMPOTENCY_LOCK_MS), its retry is told to wait.
      const early = await apply(restarted.baseUrl);
      expect([early?.status, (early?.json as { error: { code: string } }).error.code]).toEqual([
        409,
        'idempotency_key_in_flight',
      ]);
      // The lock runs out (the test moves it instead of waiting a minute): the retry runs, once.
      await database.db.update(idempotencyKeys).set({ lockedUntil: new Date() }).where(eq(idempotencyKeys.key, key));
      const retried = await apply(restarted.baseUrl);
      expect(retried?.status, JSON.stringify(retried?.json)).toBe(200);
      const again = await apply(restarted.baseUrl);
      expect(again).toEqual(retried);
      await restarted.kill();

      expect(
        await database.db.select().from(receiptAllocations).where(eq(receiptAllocations.receiptId, receipt.id)),
      ).toHaveLength(1);
      const [after] = await database.db.select().from(receipts).where(eq(receipts.id, receipt.id));
      expect(after).toMatchObject({ unappliedCents: 20_00, version: receipt.version + 1 });
      const [paid] = await database.db.select().from(invoices).where(eq(invoices.id, invoice.id));
      expect(paid).toMatchObject({ status: 'P', paidCents: 80_00 });
      expect(await ledgerMismatches()).toEqual([]);
    }, 90_000);

    it('a charge: the server killed while the gateway takes a staff retry → after the restart one S, one charge at the gateway; the same request again charges nothing', async () => {
      const customer = await createCustomer(database.db, { country: 'US' });
      const store = await createStore(database.db, { customerId: customer.id, country: 'US' });
      const declined = await createPaymentInstrument(database.db, {
        customerId: customer.id,
        storeId: store.id,
        kind: 'card',
        cardLast4: '0002',
        processorReference: `pm_local_test${customer.id}_0002`,
        isDefault: true,
      });
      const invoice = await createInvoice(database.db, {
        customerId: customer.id,
        storeId: store.id,
        currency: 'USD',
        lines: [{ billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, unitCents: 79_00 }],
      });
      const first = await chargeInvoice(t.app.ctx, {
        invoiceId: invoice.id,
        attempt: 'autopay',
        source: 'autopay',
        actor: { actorType: 'system' },
        requestId: randomUUID(),
      });
      expect(first).toMatchObject({ status: 'F' });
      const [failed] = await database.db.select().from(transactions).where(eq(transactions.invoiceId, invoice.id));
      // The merchant's new default card is the local gateway's slow one (…0341): its answer takes a minute.
      await database.db
        .update(paymentInstruments)
        .set({ isDefault: false })
        .where(eq(paymentInstruments.id, declined.id));
      const slow = await createPaymentInstrument(database.db, {
        customerId: customer.id,
        storeId: store.id,
        kind: 'card',
        cardLast4: '0341',
        processorReference: `pm_local_test${customer.id}_0341`,
        isDefault: true,
      });
      const gateway = t.app.ctx.gateway as LocalGateway;
      const key = `crash-retry-${failed!.id}`;
      const retry = (baseUrl: string) =>
        call(
          baseUrl,
          'POST',
          `/api/customers/${customer.id}/${tok.admin}/transactions/${failed!.id}`,
          { action: 'retry', version: failed!.version },
          { 'idempotency-key': key },
        );
      const charges = () => gateway.store.countCharges(slow.processorReference!);

      const server = await startServer(database, { env: { LOCAL_GATEWAY_SLOW_MS: '60000' } });
      const inFlight = retry(server.baseUrl);
      await until(async () => (await charges()) === 1, 30_000, 'the gateway to take the charge');
      await server.kill();
      expect(await inFlight).toBeNull();
      const statuses = async () =>
        (await database.db.select().from(transactions).where(eq(transactions.invoiceId, invoice.id)))
          .map((x) => x.status)
          .sort();
      expect(await statuses()).toEqual(['P', 'R']); // the retry's charge is pending; the failed one it supersedes is R

      // After the restart: the reconciler (the sweep job) asks the gateway by the charge's key and records its answer.
      const restarted = await startServer(database);
      t.clock.set(new Date());
      expect((await sweepPayments(t.app.ctx)).reconciled).toBe(1);
      const [paid] = await database.db.select().from(invoices).where(eq(invoices.id, invoice.id));
      expect(paid).toMatchObject({ status: 'P', paidCents: 79_00 });
      // The staff member sends the same request again once its lock has run out: nothing is charged again.
      await database.db.update(idempotencyKeys).set({ lockedUntil: new Date() }).where(eq(idempotencyKeys.key, key));
      const again = await retry(restarted.baseUrl);
      // It finds the failed charge already superseded (R, a new version): 409, nothing charged.
      expect([again?.status, (again?.json as { error: { code: string } }).error.code]).toEqual([
        409,
        'version_conflict',
      ]);
      await restarted.kill();
      expect(await charges()).toBe(1);
      expect((await statuses()).filter((s) => s === 'S')).toHaveLength(1);
      expect(await ledgerMismatches()).toEqual([]);
    }, 90_000);

    it('an order submission: the server killed inside its transaction → still a Draft, no contract; submitted again after the restart, once', async () => {
      const created = await t.request({
        method: 'POST',
        url: `/api/customers/orderinfo/new/${tok.sales}`,
        payload: { json: blankOrder() },
      });
      expect(created.statusCode, created.body).toBe(200);
      const id = created.json().info.orderInfoId as number;
      const submit = (baseUrl: string) =>
        call(baseUrl, 'POST', `/api/customers/orderinfo/${id}/${tok.sales}`, {
          json: completeOrder(),
          version: 1,
          submit: true,
        });
      const actions = async () =>
        (
          await database.db
            .select({ action: auditLog.action })
            .from(auditLog)
            .where(and(eq(auditLog.entity, 'order'), eq(auditLog.entityId, String(id))))
        )
          .map((a) => a.action)
          .sort();
      const history = async () =>
        (await database.db.select().from(orderStatusHistory).where(eq(orderStatusHistory.orderId, id))).map((h) => [
          h.fromStatus,
          h.toStatus,
        ]);

      const server = await startServer(database, { faultPoint: 'order-submit:uncommitted' });
      const inFlight = submit(server.baseUrl);
      await reached(server, 'order-submit:uncommitted');
      await server.kill();
      expect(await inFlight).toBeNull();

      const [draft] = await database.db.select().from(orders).where(eq(orders.id, id));
      expect([draft!.status, draft!.version, draft!.submittedAt]).toEqual(['1', 1, null]);
      expect(await history()).toEqual([[null, '1']]);
      expect(await actions()).toEqual(['order.create']);

      const restarted = await startServer(database);
      const res = await submit(restarted.baseUrl);
      expect(res?.status, JSON.stringify(res?.json)).toBe(200);
      expect((res?.json as { info: unknown }).info).toMatchObject({ status: '11', version: 3 });
      await restarted.kill();
      expect(await history()).toEqual([
        [null, '1'],
        ['1', '11'],
      ]);
      expect(await actions()).toEqual([
        'contract.generate',
        'contract.sign_link_sent',
        'order.create',
        'order.status',
        'order.update',
      ]);
    }, 90_000);
  },
);
