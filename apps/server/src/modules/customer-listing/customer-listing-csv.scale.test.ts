import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { rangeStatements } from '../../db/scale/scale.sql';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * The customer listing's CSV of 100,000 stores (decision 130): 50,000 customers, their stores and one monthly plan
 * each, made by the set-based SQL of `npm run seed:scale`. The server listens on a real port and the test reads
 * the body as a stream, counting lines without keeping them, while it samples the process's heap: the keyset
 * stream holds one page (1,000 rows) at a time, so the heap must not grow with the file (about 16 MB here).
 * Runs on PGlite (well under a minute) and, with TEST_DATABASE_URL, on PostgreSQL.
 */

const STORES = 100_000;
/**
 * While the whole file (~16 MB) streams: what stays alive after a collection may grow by at most RETAINED_BOUND_MB
 * (a page is ~0.2 MB of CSV; measured ~2.5 MB), and the heap including garbage not yet collected by at most
 * HEAP_BOUND_MB (measured ~20 MB). A stream that kept the file, or its rows, would pass the first bound.
 */
const RETAINED_BOUND_MB = 12;
const HEAP_BOUND_MB = 64;

/** V8's collector, exposed at run time (vitest's workers do not start with --expose-gc). */
function collector(): () => void {
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return existing;
  setFlagsFromString('--expose-gc');
  return runInNewContext('gc') as () => void;
}

let t: TestApp;
let token: string;
let base: string;

beforeAll(async () => {
  const database = await createTestDatabase();
  const offsets = { customer: 0, store: 0, terminal: 0, plan: 0, invoice: 0, transaction: 0, order: 0 };
  const [customers, stores, , plans] = rangeStatements(offsets);
  for (const text of [customers!, stores!, plans!]) await database.query(text, [1, STORES]);
  await database.exec('analyze customers; analyze stores; analyze customer_payment_plans');
  t = await createTestApp({ database });
  ({ mk: token } = await signInStaff(t, { mk: 'Marketing' }));
  base = await t.app.listen({ port: 0, host: '127.0.0.1' });
}, 180_000);
afterAll(async () => {
  await t.close();
  await t.database.close();
});

describe('the customer listing CSV at 100,000 stores', () => {
  it('streams every row with a flat heap', async () => {
    const gc = collector();
    gc();
    const baseline = process.memoryUsage().heapUsed;
    let peak = baseline;
    let retained = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().heapUsed);
    }, 25);
    let lines = 0;
    let bytes = 0;
    let total: string | null;
    try {
      const res = await fetch(`${base}/api/reports/customer-listing/${token}?format=csv`);
      expect(res.status).toBe(200);
      total = res.headers.get('x-total-count');
      const reader = res.body!.getReader();
      for (let i = 0; ; i++) {
        const { done, value } = await reader.read();
        if (done) break;
        bytes += value.byteLength;
        for (const byte of value) if (byte === 10) lines++;
        // A collection now and then: `retained` measures what is kept alive, not garbage not yet collected.
        if (i % 20 === 0) {
          gc();
          retained = Math.max(retained, process.memoryUsage().heapUsed);
        }
      }
    } finally {
      clearInterval(sampler);
    }
    expect(total).toBe(String(STORES));
    expect(lines - 1).toBe(STORES); // the header, then one line per store
    expect(bytes).toBeGreaterThan(STORES * 100);
    const growthMb = (peak - baseline) / 2 ** 20;
    const retainedMb = (retained - baseline) / 2 ** 20;
    const streamed = `${(bytes / 2 ** 20).toFixed(1)} MB streamed`;
    expect(retainedMb, `${retainedMb.toFixed(1)} MB kept alive while ${streamed}`).toBeLessThan(RETAINED_BOUND_MB);
    expect(growthMb, `heap grew ${growthMb.toFixed(1)} MB while ${streamed}`).toBeLessThan(HEAP_BOUND_MB);
  }, 120_000);
});
