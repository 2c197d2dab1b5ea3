import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectOptions, LightMyRequestResponse, RouteOptions } from 'fastify';
import { buildApp, type App } from '../app';
import { loadConfig, type AppConfig } from '../config';
import type { Database } from '../db/client';
import { XSRF_COOKIE } from '../http/xsrf';
import { fixedClock } from '../lib/clock';
import { createTestDatabase } from './db-template';
import { createGateway, type PaymentGateway } from '../integrations/gateway';

export interface TestApp {
  app: App;
  database: Database;
  clock: ReturnType<typeof fixedClock>;
  /** Every log line the app wrote, parsed. */
  logs: Array<Record<string, unknown>>;
  /** Inject with the XSRF cookie and header already set (as the web app sends them). */
  request(opts: InjectOptions): Promise<LightMyRequestResponse>;
  close(): Promise<void>;
}

let dataDir: string | undefined;
const testDataDir = () => (dataDir ??= mkdtempSync(path.join(os.tmpdir(), 'pos-test-data-')));

/**
 * Test configuration: the local identity provider keeps its key in memory, and the sign-in rate limit is
 * high enough not to get in the way (the rate-limit test lowers it).
 */
export function testConfig(overrides: Partial<AppConfig> = {}): AppConfig {
  return {
    ...loadConfig({ NODE_ENV: 'test', LOG_LEVEL: 'info', SEED_DEMO_DATA: 'false' }),
    oidcLocalKeyFile: null,
    signInRateLimitPerMinute: 10_000,
    // Files the app stores (uploads, contract PDFs) go to a folder of this test run, never the repository's ./data.
    dataDir: testDataDir(),
    ...overrides,
  };
}

export async function createTestApp(
  options: {
    config?: Partial<AppConfig>;
    database?: Database;
    beforeReady?: (app: App) => void;
    /** Called for every route as it is registered. */
    onRoute?: (route: RouteOptions) => void;
    /** Wrap the payment gateway the configuration selects (e.g. to count or fail its calls). */
    wrapGateway?: (gateway: PaymentGateway) => PaymentGateway;
  } = {},
): Promise<TestApp> {
  const database = options.database ?? (await createTestDatabase());
  const clock = fixedClock('2026-11-22T12:00:00Z');
  const logs: Array<Record<string, unknown>> = [];
  const config = testConfig(options.config);
  const app = await buildApp({
    config,
    database,
    clock,
    onRoute: options.onRoute,
    gateway: options.wrapGateway?.(createGateway(config, clock, database)),
    logStream: { write: (line: string) => void logs.push(JSON.parse(line) as Record<string, unknown>) },
  });
  options.beforeReady?.(app);
  await app.ready();

  const first = await app.inject({ method: 'GET', url: '/api/health' });
  const xsrf = first.cookies.find((c) => c.name === XSRF_COOKIE)?.value;
  if (!xsrf) throw new Error('the app did not issue an XSRF cookie');

  return {
    app,
    database,
    clock,
    logs,
    request(opts) {
      const headers = { ...(opts.headers ?? {}) } as Record<string, string>;
      headers.cookie = [headers.cookie, `${XSRF_COOKIE}=${xsrf}`].filter(Boolean).join('; ');
      if (opts.method && opts.method !== 'GET') headers['x-xsrf-token'] ??= xsrf;
      return app.inject({ ...opts, headers });
    },
    async close() {
      await app.close();
      if (!options.database) await database.close();
    },
  };
}
