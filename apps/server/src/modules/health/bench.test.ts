import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import { createTestDatabase } from '../../test/db-template';
import { createTestApp, type TestApp } from '../../test/test-app';

describe('the bench baseline GET /api/bench/bare (BENCH_ROUTES)', () => {
  const statements: string[] = [];
  let bench: TestApp;
  let plain: TestApp;
  beforeAll(async () => {
    const database = await createTestDatabase({ onQuery: (sqlText) => statements.push(sqlText) });
    bench = await createTestApp({ database, config: { benchRoutes: true } });
    plain = await createTestApp();
  });
  afterAll(async () => {
    await bench.close();
    await bench.database.close();
    await plain.close();
  });

  it('answers a constant JSON without touching the database', async () => {
    statements.length = 0;
    const res = await bench.request({ method: 'GET', url: '/api/bench/bare' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ info: { status: 'ok' } });
    expect(statements).toEqual([]);
    // The counter does see the database: /api/health runs its one query.
    await bench.request({ method: 'GET', url: '/api/health' });
    expect(statements).toEqual(['select 1']);
  });

  it('does not exist unless BENCH_ROUTES is set', async () => {
    const res = await plain.request({ method: 'GET', url: '/api/bench/bare' });
    expect(res.statusCode).toBe(404);
    expect((await plain.request({ method: 'GET', url: '/api/bench/heap' })).statusCode).toBe(404);
  });

  it('GET /api/bench/heap answers the heap after a full collection (the soak reads it), without the database', async () => {
    statements.length = 0;
    const res = await bench.request({ method: 'GET', url: '/api/bench/heap' });
    expect(res.statusCode, res.body).toBe(200);
    const { info } = res.json();
    expect(info.collected).toBe(true);
    expect(info.heap_used_bytes).toBeGreaterThan(1024 * 1024);
    expect(info.rss_bytes).toBeGreaterThan(info.heap_used_bytes);
    expect(statements).toEqual([]);
    // Garbage made between two readings is collected: the second reading is not the garbage's size higher.
    const makeGarbage = () => Array.from({ length: 200_000 }, (_, i) => ({ i, s: `x${i}` })).length;
    expect(makeGarbage()).toBe(200_000);
    const again = (await bench.request({ method: 'GET', url: '/api/bench/heap' })).json().info;
    expect(again.heap_used_bytes - info.heap_used_bytes).toBeLessThan(5 * 1024 * 1024);
  });

  it('is refused in production', () => {
    expect(loadConfig({ BENCH_ROUTES: 'true' }).benchRoutes).toBe(true);
    expect(loadConfig({}).benchRoutes).toBe(false);
    expect(() =>
      loadConfig({ BENCH_ROUTES: 'true', NODE_ENV: 'production', IDENTITY_PROVIDER: 'google', GOOGLE_CLIENT_ID: 'x' }),
    ).toThrow(/BENCH_ROUTES/);
  });
});
