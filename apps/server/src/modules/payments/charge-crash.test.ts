import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { BILLING_ITEM_IDS } from '@pos/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import { createCustomer, createInvoice, createPaymentInstrument, createStore } from '../../db/factories';
import { invoices, transactions } from '../../db/schema';
import type { LocalGateway } from '../../integrations/gateway';
import { createTestDatabase } from '../../test/db-template';
import { createTestApp, type TestApp } from '../../test/test-app';
import { chargeInvoice } from './charge.service';
import { enqueueCharge, sweepPayments } from './sweep.service';

/*
 * Issue 15 acceptance, crash test (PostgreSQL: the worker is its own process): the worker is SIGKILLed after it
 * recorded the P transaction and the gateway took the charge, before it recorded the answer. After the restart the
 * reconciler leaves exactly one S, and the gateway saw one charge; the job's own retry of the same attempt adds
 * nothing.
 */

const WORKER = path.join(path.dirname(fileURLToPath(import.meta.url)), '../../worker.ts');

function startWorker(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', WORKER], {
    env: { PATH: process.env.PATH, HOME: process.env.HOME, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += String(d)));
  child.stderr?.on('data', (d) => (output += String(d)));
  return { child, output: () => output };
}

async function until<T>(probe: () => Promise<T | null | undefined | false>, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const got = await probe();
    if (got) return got;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

describe.skipIf(!process.env.TEST_DATABASE_URL)('a charge survives the worker being killed mid-call', () => {
  let database: Database;
  let t: TestApp;
  let url: string;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    database = await createTestDatabase();
    url = (database as unknown as { pool: { options: { connectionString: string } } }).pool.options.connectionString;
    t = await createTestApp({
      database,
      config: { jobsInlineWorkers: false, payments: { retryDays: [3, 7, 14], reconcileAfterSeconds: 0 } },
    });
    // The worker process runs on the real clock; so does the reconciler here.
    t.clock.set(new Date());
  }, 60_000);
  afterAll(async () => {
    for (const c of children) if (c.exitCode === null) c.kill('SIGKILL');
    await t.close();
    await database.close();
  });

  it('SIGKILL between "P recorded" and "gateway answered" → one S after the restart, one charge at the gateway', async () => {
    const customer = await createCustomer(database.db, { country: 'US' });
    const store = await createStore(database.db, { customerId: customer.id, country: 'US' });
    // The slow test card: the gateway takes the charge, then answers only after LOCAL_GATEWAY_SLOW_MS.
    const card = await createPaymentInstrument(database.db, {
      customerId: customer.id,
      storeId: store.id,
      cardLast4: '0341',
      processorReference: `pm_local_crash${customer.id}_0341`,
    });
    const invoice = await createInvoice(database.db, {
      customerId: customer.id,
      storeId: store.id,
      lines: [{ billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, unitCents: 79_00 }],
    });
    const gateway = t.app.ctx.gateway as LocalGateway;

    const worker = startWorker({
      NODE_ENV: 'test',
      DATABASE_URL: url,
      LOG_LEVEL: 'silent',
      LOCAL_GATEWAY_SLOW_MS: '60000',
    });
    children.push(worker.child);
    await until(async () => /job workers running/.test(worker.output()), 60_000, `the worker (${worker.output()})`);
    await enqueueCharge(t.app.ctx, invoice.id, 'autopay', 'autopay');

    // The worker recorded P and the gateway took the charge; the answer is on its way (60 s): kill it now.
    await until(
      async () => (await gateway.store.countCharges(card.processorReference!)) === 1,
      60_000,
      'the gateway to receive the charge',
    );
    const [pending] = await database.db.select().from(transactions).where(eq(transactions.invoiceId, invoice.id));
    expect(pending).toMatchObject({ status: 'P' });
    worker.child.kill('SIGKILL');
    await new Promise((r) => worker.child.once('exit', r));

    // After the restart: the reconciler asks the gateway by the charge's key and records its answer.
    t.clock.set(new Date());
    expect((await sweepPayments(t.app.ctx)).reconciled).toBe(1);
    const after = await database.db.select().from(transactions).where(eq(transactions.invoiceId, invoice.id));
    expect(after.map((r) => r.status)).toEqual(['S']);
    expect(await gateway.store.countCharges(card.processorReference!)).toBe(1);
    const [inv] = await database.db.select().from(invoices).where(eq(invoices.id, invoice.id));
    expect(inv).toMatchObject({ status: 'P', paidCents: 79_00 });

    // The killed job is retried by the queue: the same attempt finds its own S and charges nothing.
    expect(
      await chargeInvoice(t.app.ctx, {
        invoiceId: invoice.id,
        attempt: 'autopay',
        source: 'autopay',
        actor: { actorType: 'system' },
        requestId: crypto.randomUUID(),
      }),
    ).toMatchObject({ kind: 'charged', status: 'S' });
    expect(await database.db.select().from(transactions).where(eq(transactions.invoiceId, invoice.id))).toHaveLength(1);
    expect(await gateway.store.countCharges(card.processorReference!)).toBe(1);
  }, 180_000);
});
