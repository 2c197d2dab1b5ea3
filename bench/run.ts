/**
 * npm run bench — the project's own measurements (bench/README.md): HTTP throughput and latency of named
 * scenarios against the real server — the demo data in a fresh PGlite data directory, or with DATABASE_URL that
 * PostgreSQL database as it is (e.g. after `npm run seed:scale -- --stores 1000000`) — each beside the bare route
 * (GET /api/bench/bare, no database) in the same run; how long `npm start` takes to answer on an already seeded
 * data dir (PGlite only; scripts/measure-start.mjs alone does just that); and the web bundle (bench/bundle.ts).
 * Results print as a table and are written to bench/results/latest.json and bench/README.md.
 * Options: --seconds N per scenario (default 5); --soak runs only the load soak (bench/soak.ts, PostgreSQL) and
 * merges it into the last results; --no-soak skips it in a full run; --only TEXT runs just the scenarios whose
 * name holds TEXT (no soak, no billing run) and prints them without writing results — a loop while tuning a
 * query. SOAK_SECONDS (default 60) and SOAK_SESSIONS (default 100) size the soak.
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import autocannon from 'autocannon';
import { openPglite, openPostgres, type Database } from '../apps/server/src/db/client';
import { benchBilling, type BillingBench } from './billing';
import { bundleReport, type BundleReport } from './bundle';
import { runSoak, soakMarkdown, type SoakReport } from './soak';
import { freePort, ROOT, startServer, waitForHealth } from '../e2e/support/server';
// @ts-expect-error — plain ESM helper shared with npm start
import { measureLaterStarts } from '../scripts/lib/measure-start.mjs';
// @ts-expect-error — plain ESM helper shared with npm start
import { ensureServerBuild } from '../scripts/lib/server-build.mjs';
// @ts-expect-error — plain ESM helper shared with npm start
import { ensureWebBuild } from '../scripts/lib/web-build.mjs';

/** What a scenario's path is filled with: picked from the database being benched (demo data or seed:scale). */
interface Picks {
  customerId: number;
  storeId: number;
  /** A store's doing-business-as name (the "full name" search). */
  fullName: string;
  /** Its first three letters (the frequent short search). */
  threeLetters: string;
  /** How many stores the picked customer has. */
  customerStores: number;
  /** The sales person with the most sales-history rows (the sales person page, decision 129); 1 when none. */
  salesPersonId: number;
}

interface Scenario {
  name: string;
  /** `{token}` is replaced by a session token of the scenario's `user` (support@example.com unless named). */
  path: (p: Picks) => string;
  /** Who calls: support@example.com unless a screen needs another role (AR reports, Breath of life). */
  user?: BenchUser;
  /** Concurrent callers. */
  connections: number;
  /** One caller's p95 latency the issues hold us to (ms). */
  targetP95Ms?: number;
  /** One caller's median latency the issues hold us to (ms). */
  targetP50Ms?: number;
  /** Throughput the issues hold us to, as a share of the bare route's at the same number of callers. */
  targetRatio?: number;
}

/** Issue 13, at 1M stores: one caller's p95 of every customer search kind and of the customer page. */
const SEARCH_P95_MS = 20;
/** Issue 13: the order queue's first page, one caller's p95. */
const ORDER_QUEUE_P95_MS = 50;
/** Issue 13: 32 callers of a customer search kind reach at least this share of the bare route's throughput. */
const SEARCH_RATIO = 0.15;
/** Issue 12: the global search (⌘K) "answers in < 50 ms on the demo data" (median of one caller's requests). */
const GLOBAL_SEARCH_P50_MS = 50;
/** Issue 13's list budget (the order queue's first page), held by the Breath of life work list too (decision 131). */
const WINBACK_LIST_P95_MS = 50;
const MANY = 32;
/** Issue 18: each report answers in < 2 s at 1M stores (one caller). */
const REPORT_P95_MS = 2000;

/** The demo users the bench signs in as (username@example.com): Customer Support, AR Team, Customer Care, Marketing,
 * Operations. */
const BENCH_USERS = ['support', 'ar', 'care', 'marketing', 'ops'] as const;
type BenchUser = (typeof BENCH_USERS)[number];

const BARE = '/api/bench/bare';
const q = encodeURIComponent;

/** Each kind runs with one caller (latency targets) and with 32 (throughput beside the bare route). */
const KINDS: Array<{
  name: string;
  path: (p: Picks) => string;
  user?: BenchUser;
  /** A report: one caller only, held to issue 18's "answers in < 2 s" (32 callers of a report would only queue). */
  report?: boolean;
  one?: Partial<Scenario>;
  many?: Partial<Scenario>;
}> = [
  {
    name: 'customer search: text, 3 letters',
    path: (p) => `/api/customers/{token}/all?search=${q(p.threeLetters)}`,
    one: { targetP95Ms: SEARCH_P95_MS },
    many: { targetRatio: SEARCH_RATIO },
  },
  {
    name: 'customer search: full name',
    path: (p) => `/api/customers/{token}/all?search=${q(p.fullName)}`,
    one: { targetP95Ms: SEARCH_P95_MS },
    many: { targetRatio: SEARCH_RATIO },
  },
  {
    name: 'customer search: customer id',
    path: (p) => `/api/customers/{token}/all?customerid=${p.customerId}`,
    one: { targetP95Ms: SEARCH_P95_MS },
    many: { targetRatio: SEARCH_RATIO },
  },
  {
    name: 'customer search: store id',
    path: (p) => `/api/customers/{token}/all?storeid=${p.storeId}`,
    one: { targetP95Ms: SEARCH_P95_MS },
    many: { targetRatio: SEARCH_RATIO },
  },
  {
    name: 'customer page (record + stores)',
    path: (p) => `/api/customers/${p.customerId}/{token}`,
    one: { targetP95Ms: SEARCH_P95_MS },
  },
  {
    name: 'order queue, first page',
    path: () => '/api/customers/orders/search/{token}?limit=25',
    one: { targetP95Ms: ORDER_QUEUE_P95_MS },
  },
  // The orders and sales reports (decision 129) and the AR reports (128): one caller, p95 ≤ 2 s (issue 18).
  {
    name: 'orders report (status, flow, channel)',
    path: () => '/api/reports/orders/{token}',
    user: 'ops',
    report: true,
  },
  {
    name: 'orders report drill-down, first page',
    report: true,
    path: () => '/api/reports/orders/list/{token}?channel=RAM&limit=25',
    user: 'ops',
  },
  {
    name: 'sales report by rep, 12 months',
    path: () => '/api/reports/sales/{token}?limit=25',
    user: 'ops',
    report: true,
  },
  {
    name: 'sales report by agent, 12 months',
    report: true,
    path: () => '/api/reports/sales/{token}?group=agent&limit=25',
    user: 'ops',
  },
  {
    name: 'sales person page: 24 months',
    report: true,
    path: (p) => `/api/reports/sales/reps/${p.salesPersonId}/{token}`,
    user: 'ops',
  },
  {
    name: 'global search, 3 letters',
    path: (p) => `/api/search/{token}?q=${q(p.threeLetters)}`,
    one: { targetP50Ms: GLOBAL_SEARCH_P50_MS },
  },
  // Issue 18 part 1 (decision 128): the AR reports.
  {
    name: 'report: AR aging (totals + by customer)',
    path: () => '/api/reports/aging/{token}?limit=25',
    user: 'ar',
    report: true,
  },
  {
    name: 'report: AR aging drill-down, 31–60 days',
    report: true,
    path: () => `/api/reports/aging/invoices/{token}?bucket=31-60&limit=25`,
    user: 'ar',
  },
  { name: 'report: revenue, last 12 months', path: () => '/api/reports/revenue/{token}', user: 'ar', report: true },
  {
    name: 'report: failed payments, last 12 months',
    path: () => '/api/reports/failed-payments/{token}',
    user: 'ar',
    report: true,
  },
  {
    // Lapsed and canceled stores with their last invoice and last activity (one statement; decision 131).
    name: 'breath of life work list, first page',
    path: () => '/api/breathoflife/{token}?limit=25',
    user: 'care',
    one: { targetP95Ms: WINBACK_LIST_P95_MS },
  },
  // Issue 18 part 2 (decisions 130, 139): one caller, p95 ≤ 2 s like the reports.
  {
    name: 'customer listing, first page',
    report: true,
    path: () => '/api/reports/customer-listing/{token}?limit=25',
    user: 'marketing',
  },
  {
    // The balance sort over every store: a walk of store_balances_open_idx (decision 139).
    name: 'customer listing, largest balance first (all stores)',
    report: true,
    path: () => '/api/reports/customer-listing/{token}?sort=-balance&limit=25',
    user: 'marketing',
  },
  {
    name: 'customer listing, filtered page (CA, ON, with balance)',
    report: true,
    path: () => '/api/reports/customer-listing/{token}?country=CA&state=ON&balance=with&sort=-balance&limit=25',
    user: 'marketing',
  },
];

/** Whole files, one caller: a CSV reads every row it matches. */
const CSV_SCENARIOS: Scenario[] = [
  {
    name: 'customer listing CSV (CA, ON)',
    path: () => '/api/reports/customer-listing/{token}?country=CA&state=ON&format=csv',
    user: 'marketing',
    connections: 1,
  },
];

const SCENARIOS: Scenario[] = [
  ...KINDS.flatMap((k) =>
    k.report
      ? [{ name: k.name, path: k.path, user: k.user, connections: 1, targetP95Ms: REPORT_P95_MS, ...k.one }]
      : [
          { name: k.name, path: k.path, user: k.user, connections: 1, ...k.one },
          { name: k.name, path: k.path, user: k.user, connections: MANY, ...k.many },
        ],
  ),
  ...CSV_SCENARIOS,
];

/** The bare route, run first and last at both caller counts: the ratio divides by the mean of the two. */
const bareScenario = (connections: number): Scenario => ({
  name: 'bare route (no database)',
  path: () => BARE,
  connections,
});

/** Ids and names from the database itself, so the scenarios hit real rows on the demo data and on seed:scale. */
async function pickScenarioIds(database: Database): Promise<Picks & { size: DatabaseSize }> {
  const [counts] = await database.query<{ customers: string; stores: string; bytes: string }>(
    `select (select count(*) from customers)::text as customers, (select count(*) from stores)::text as stores,
            pg_database_size(current_database())::text as bytes`,
  );
  // The customer in the middle of the id range (not the first: demo customer 1 is special in the seed).
  const [customer] = await database.query<{ id: number }>(
    `select id from customers order by id offset (select count(*) / 2 from customers) limit 1`,
  );
  if (!customer) throw new Error('the database has no customers: seed it first (npm start, or npm run seed:scale)');
  const [store] = await database.query<{ id: number; dba: string; n: string }>(
    `select id, doing_business_as as dba, count(*) over ()::text as n from stores where customer_id = $1
     order by id limit 1`,
    [customer.id],
  );
  if (!store) throw new Error(`customer ${customer.id} has no store`);
  const letters = store.dba
    .replace(/[^A-Za-z]/g, '')
    .slice(0, 3)
    .toLowerCase();
  const [rep] = await database.query<{ id: number }>(
    `select sales_person_id as id from sales_history group by 1 order by count(*) desc, 1 limit 1`,
  );
  return {
    salesPersonId: Number(rep?.id ?? 1),
    customerId: Number(customer.id),
    storeId: Number(store.id),
    fullName: store.dba,
    threeLetters: letters.length === 3 ? letters : 'mar',
    customerStores: Number(store.n),
    size: {
      customers: Number(counts!.customers),
      stores: Number(counts!.stores),
      sizeMb: Math.round(Number(counts!.bytes) / 1024 / 1024),
    },
  };
}

interface DatabaseSize {
  customers: number;
  stores: number;
  sizeMb: number;
}

interface Measured {
  reqPerSec: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
  requests: number;
  non2xx: number;
  errors: number;
}

/** A request that takes longer counts as an error (a timeout), so one slow scenario cannot stall the run. */
const REQUEST_TIMEOUT_S = 5;
/** After a scenario, wait (at most this long) until the database runs nothing of it any more. */
const IDLE_WAIT_MS = 60_000;

const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : +sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!.toFixed(1);

/** One scenario for `seconds`: every response's time is kept, so p95 is exact (autocannon's histogram has none). */
async function measure(url: string, connections: number): Promise<Measured> {
  const times: number[] = [];
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ url, connections, duration: seconds, timeout: REQUEST_TIMEOUT_S }, (err, result) =>
      err ? reject(err as Error) : resolve(result),
    );
    instance.on('response', (_client, _status, _bytes, responseTime) => times.push(responseTime));
  });
  times.sort((a, b) => a - b);
  return {
    reqPerSec: Math.round(r.requests.total / seconds),
    p50Ms: percentile(times, 50),
    p95Ms: percentile(times, 95),
    p99Ms: percentile(times, 99),
    requests: r.requests.total,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
  };
}

/** A session of a demo staff member through the local identity provider (the API way the e2e tests use). */
async function signIn(baseUrl: string, email: string): Promise<string> {
  const health = await fetch(`${baseUrl}/api/health`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')?.[1];
  if (!xsrf) throw new Error('no XSRF cookie from /api/health');
  const headers = { 'content-type': 'application/json', cookie: `XSRF-TOKEN=${xsrf}`, 'x-xsrf-token': xsrf };
  const call = async (url: string, body: object) => {
    const res = await fetch(`${baseUrl}${url}`, { method: 'POST', headers, body: JSON.stringify(body) });
    if (!res.ok) throw new Error(`${url} → ${res.status} ${await res.text()}`);
    return ((await res.json()) as { info: Record<string, string> }).info;
  };
  const { idtoken } = await call('/api/dev/idtoken', { email });
  return (await call('/api/auth/authenticate', { idtoken: idtoken! })).token!;
}
/** `npm start` on a seeded data directory → first 200 of /api/health (median of this many starts; decision 041). */
const LATER_STARTS = 5;
const LATER_START_TARGET_MS = 5000;

interface LaterStarts {
  via: string;
  laterStartsMs: number[];
  medianLaterStartMs: number;
  loadAvg1m: number;
}

const secondsArg = process.argv.indexOf('--seconds');
const seconds = secondsArg > -1 ? Number(process.argv[secondsArg + 1]) : 5;
/** --soak: only the load soak; --no-soak: a full run without it. */
const soakOnly = process.argv.includes('--soak');
const onlyArg = process.argv.indexOf('--only');
/** --only TEXT: the scenarios whose name holds TEXT, printed, nothing written. */
const only = onlyArg > -1 ? (process.argv[onlyArg + 1] ?? '') : null;
const skipSoak = process.argv.includes('--no-soak') || only !== null;
const soakSeconds = Number(process.env.SOAK_SECONDS ?? 60);
const soakSessions = Number(process.env.SOAK_SESSIONS ?? 100);

interface SoakSection extends SoakReport {
  at: string;
  database: { kind: 'postgres' } & DatabaseSize;
}

/** The soak on the running server: ids and search texts from the database, sessions of the demo users. */
async function soak(baseUrl: string, databaseUrl: string): Promise<SoakSection> {
  const database = await openPostgres(databaseUrl, { max: 1 });
  let customerIds: number[];
  let searchTexts: string[];
  let size: DatabaseSize;
  try {
    size = (await pickScenarioIds(database)).size;
    customerIds = (await database.query<{ id: number }>(`select id from customers order by random() limit 500`)).map(
      (r) => Number(r.id),
    );
    const names = (
      await database.query<{ dba: string }>(`select doing_business_as as dba from stores order by random() limit 20`)
    ).map((r) => r.dba);
    // The frequent short search (three letters) and the full name, from real stores.
    searchTexts = names
      .flatMap((n) => [
        n
          .replace(/[^A-Za-z]/g, '')
          .slice(0, 3)
          .toLowerCase(),
        n,
      ])
      .filter(Boolean);
  } finally {
    await database.close();
  }
  console.log(`soak: ${soakSessions} sessions × ${soakSeconds} s of mixed traffic…`);
  const report = await runSoak({
    baseUrl,
    sessions: soakSessions,
    seconds: soakSeconds,
    signIn: (email) => signIn(baseUrl, email),
    customerIds,
    searchTexts,
  });
  console.table(report.kinds);
  console.log(
    `soak: ${report.total.count} requests, ${report.total.errors} errors; heap ${report.heap.startMb} → ${report.heap.endMb} MB ` +
      `(growth ${report.heap.growthMb} MB, bound < ${report.heap.boundMb} MB): ${report.meetsTarget ? 'met' : 'MISSED'}`,
  );
  if (report.errorSamples.length) console.log(`soak: first errors: ${report.errorSamples.join('; ')}`);
  return { at: new Date().toISOString(), database: { kind: 'postgres', ...size }, ...report };
}

/** Writes the soak's section into bench/README.md. */
function updateSoakReadme(section: SoakSection) {
  const file = path.join(ROOT, 'bench/README.md');
  const text = readFileSync(file, 'utf8');
  const [start, end] = MARK('soak');
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`bench/README.md has no ${start} … ${end} section`);
  const db = section.database;
  const heading =
    `### PostgreSQL — ${section.at.slice(0, 16).replace('T', ' ')} UTC — ` +
    `${db.customers.toLocaleString('en-US')} customers, ${db.stores.toLocaleString('en-US')} stores, ${db.sizeMb.toLocaleString('en-US')} MB`;
  writeFileSync(file, `${text.slice(0, a + start.length)}\n${soakMarkdown(section, heading)}\n${text.slice(b)}`);
}

/** --soak: the soak alone on DATABASE_URL, merged into the last results (the other scenarios stay as they were). */
async function soakAlone(databaseUrl: string | undefined) {
  if (!databaseUrl) throw new Error('the soak runs on PostgreSQL: set DATABASE_URL (see bench/README.md)');
  await (ensureServerBuild as (o: { quiet: boolean }) => Promise<boolean>)({ quiet: true });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pbo-soak-'));
  const server = await signedInServer({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
  try {
    const section = await soak(server.baseUrl, databaseUrl);
    await server.stop();
    const file = path.join(ROOT, 'bench/results/latest.json');
    const last = (() => {
      try {
        return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
      } catch {
        return {};
      }
    })();
    mkdirSync(path.dirname(file), { recursive: true });
    writeFileSync(file, `${JSON.stringify({ ...last, soak: section }, null, 2)}\n`);
    updateSoakReadme(section);
    console.log('written: bench/results/latest.json (soak), bench/README.md');
    if (!section.meetsTarget) process.exitCode = 1;
  } finally {
    await server.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

interface Row extends Measured {
  scenario: string;
  connections: number;
  path: string;
  /** This scenario's req/s over the bare route's at the same number of callers, in the same run. */
  ratioToBare: number | null;
  target: string | null;
  meetsTarget: boolean | null;
}

/**
 * Until the benched PostgreSQL database runs no other query: a scenario's requests that timed out on the client
 * still run on the server, and must not slow the next scenario down. (PGlite runs in the server's process: there,
 * the server answers the next request only when it is done anyway.)
 */
async function waitForIdle(databaseUrl: string | undefined): Promise<void> {
  if (!databaseUrl) return;
  const database = await openPostgres(databaseUrl, { max: 1 });
  try {
    const until = Date.now() + IDLE_WAIT_MS;
    while (Date.now() < until) {
      const [row] = await database.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity
         where datname = current_database() and state = 'active' and pid <> pg_backend_pid()
           and backend_type = 'client backend'`,
      );
      if ((row?.n ?? 0) === 0) return;
      await new Promise((r) => setTimeout(r, 200));
    }
    console.log('  (the database was still busy after the wait)');
  } finally {
    await database.close();
  }
}

async function runScenarios(
  baseUrl: string,
  tokens: Readonly<Record<BenchUser, string>>,
  picks: Picks,
  databaseUrl: string | undefined,
): Promise<{ rows: Row[]; bare: Row[] }> {
  const url = (s: Scenario) => `${baseUrl}${s.path(picks).replace('{token}', tokens[s.user ?? 'support'])}`;
  const row = (s: Scenario, m: Measured, ratio: number | null): Row => {
    const targets = [
      s.targetP95Ms === undefined ? null : ([`p95 ≤ ${s.targetP95Ms} ms`, m.p95Ms <= s.targetP95Ms] as const),
      s.targetP50Ms === undefined ? null : ([`p50 ≤ ${s.targetP50Ms} ms`, m.p50Ms <= s.targetP50Ms] as const),
      s.targetRatio === undefined || ratio === null
        ? null
        : ([`≥ ${s.targetRatio}× bare`, ratio >= s.targetRatio] as const),
    ].filter((t) => t !== null);
    return {
      scenario: s.name,
      connections: s.connections,
      path: s.path(picks),
      ...m,
      ratioToBare: ratio,
      target: targets.map((t) => t[0]).join(', ') || null,
      // A scenario whose answers were not all 2xx meets nothing.
      meetsTarget: targets.length === 0 ? null : m.non2xx === 0 && m.errors === 0 && targets.every((t) => t[1]),
    };
  };
  const counts = [1, MANY];
  const bareBefore = new Map<number, Measured>();
  for (const c of counts) bareBefore.set(c, await measure(url(bareScenario(c)), c));
  const measured: Array<[Scenario, Measured]> = [];
  for (const s of SCENARIOS.filter((x) => only === null || x.name.includes(only))) {
    const m = await measure(url(s), s.connections);
    await waitForIdle(databaseUrl);
    measured.push([s, m]);
    console.log(`  ${s.name}, ${s.connections} caller(s): ${m.reqPerSec} req/s, p95 ${m.p95Ms} ms`);
  }
  const bare: Row[] = [];
  const bareRps = new Map<number, number>();
  for (const c of counts) {
    const before = bareBefore.get(c)!;
    const after = await measure(url(bareScenario(c)), c);
    bareRps.set(c, (before.reqPerSec + after.reqPerSec) / 2);
    bare.push(row({ ...bareScenario(c), name: 'bare route (no database), before' }, before, null));
    bare.push(row({ ...bareScenario(c), name: 'bare route (no database), after' }, after, null));
  }
  const rows = measured.map(([s, m]) => {
    const base = bareRps.get(s.connections);
    return row(s, m, base ? +(m.reqPerSec / base).toFixed(3) : null);
  });
  return { rows, bare };
}

const MARK = (kind: string) => [`<!-- bench:${kind}:start -->`, `<!-- bench:${kind}:end -->`] as const;

/** The run as a markdown section: machine, date, database, then one line per scenario. */
function markdown(report: Report): string {
  const m = report.machine;
  const db = report.database;
  const yes = (v: boolean | null) => (v === null ? '' : v ? 'yes' : '**no**');
  const lines = [
    `### ${db.kind === 'postgres' ? 'PostgreSQL' : 'PGlite (embedded)'} — ${report.at.slice(0, 16).replace('T', ' ')} UTC`,
    '',
    `Machine: ${m.cpus} × ${m.cpuModel}, ${m.memoryGb} GB memory, ${m.platform}, Node ${m.node}, load ${m.loadAvg1m} at the start. ` +
      `Database: ${db.kind}, ${db.customers.toLocaleString('en-US')} customers, ${db.stores.toLocaleString('en-US')} stores, ` +
      `${db.sizeMb.toLocaleString('en-US')} MB. Client and server on the same machine; ${report.secondsPerScenario} s per scenario. ` +
      `Picked: customer ${report.picks.customerId} (${report.picks.customerStores} stores), store ${report.picks.storeId}, ` +
      `name "${report.picks.fullName}", text "${report.picks.threeLetters}".`,
    '',
    '| scenario | callers | req/s | p50 ms | p95 ms | p99 ms | × bare | non-2xx or timed out | target | met |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---|---|',
    ...[...report.bare, ...report.http].map(
      (r) =>
        `| ${r.scenario} | ${r.connections} | ${r.reqPerSec} | ${r.p50Ms} | ${r.p95Ms} | ${r.p99Ms} | ${r.ratioToBare ?? ''} | ${r.non2xx + r.errors} | ${r.target ?? ''} | ${yes(r.meetsTarget)} |`,
    ),
  ];
  const bill = report.billing;
  if (bill) {
    lines.push(
      '',
      `Billing run (issue 14): ${bill.plans.toLocaleString('en-US')} monthly plans due, batches of ${bill.batchSize.toLocaleString('en-US')}: ` +
        `**${bill.run.perSecond.toLocaleString('en-US')} invoices/s** (${bill.run.seconds} s, ${bill.run.lines.toLocaleString('en-US')} lines); ` +
        `raw INSERT … SELECT of the same rows into the same tables ${bill.raw.perSecond.toLocaleString('en-US')}/s (${bill.raw.seconds} s); ` +
        `ratio ${bill.ratio} (targets ≥ ${bill.targetPerSecond.toLocaleString('en-US')}/s and ≥ ${bill.targetRatio}×): ${bill.meetsTarget ? 'met' : '**missed**'}.`,
    );
  }
  const b = report.bundle;
  if (b.firstRoute && b.largestRouteChunk) {
    lines.push(
      '',
      `Web bundle: first route ${b.firstRoute.route} ${b.firstRoute.jsGzipKb} kB gzip of JS (target ≤ ${b.firstRoute.targetKb}), ` +
        `largest route chunk ${b.largestRouteChunk.module.replace(/^.*\//, '')} ${b.largestRouteChunk.gzipKb} kB (target ≤ ${b.largestRouteChunk.targetKb}): ` +
        `${b.meetsTarget ? 'targets hold' : '**a target is missed**'}.`,
    );
  }
  if (report.laterStartToHealthy) {
    const l = report.laterStartToHealthy;
    lines.push('', `Later \`npm start\` → healthy: median ${l.medianMs} ms (target < ${l.targetMs} ms).`);
  }
  return lines.join('\n');
}

/** Writes this run's section into bench/README.md, replacing the last run on the same kind of database. */
function updateReadme(report: Report) {
  const file = path.join(ROOT, 'bench/README.md');
  const text = readFileSync(file, 'utf8');
  const [start, end] = MARK(report.database.kind);
  const a = text.indexOf(start);
  const b = text.indexOf(end);
  if (a < 0 || b < a) throw new Error(`bench/README.md has no ${start} … ${end} section`);
  writeFileSync(file, `${text.slice(0, a + start.length)}\n${markdown(report)}\n${text.slice(b)}`);
}

interface Report {
  at: string;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGb: number;
    platform: string;
    node: string;
    loadAvg1m: number;
  };
  database: { kind: 'postgres' | 'pglite' } & DatabaseSize;
  picks: Picks;
  secondsPerScenario: number;
  firstStartToHealthyMs: number;
  laterStartToHealthy: {
    command: string;
    medianMs: number;
    runsMs: number[];
    targetMs: number;
    meetsTarget: boolean;
  } | null;
  bare: Row[];
  http: Row[];
  billing: BillingBench | null;
  bundle: BundleReport;
  /** The load soak (PostgreSQL only; null on PGlite or with --no-soak). */
  soak: SoakSection | null;
}

async function signedInServer(env: Record<string, string>) {
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = startServer({
    PORT: String(port),
    HOST: '127.0.0.1',
    NODE_ENV: 'development',
    LOG_LEVEL: 'warn',
    BENCH_ROUTES: 'true',
    // The soak signs in 100 sessions from one address within a minute.
    SIGNIN_RATE_LIMIT_PER_MINUTE: '100000',
    ...env,
  });
  const startMs = await waitForHealth(baseUrl, 600_000, server.exited).catch((err: Error) => {
    throw new Error(`${err.message}\n${server.output()}`, { cause: err });
  });
  const stop = async () => {
    if (server.process.exitCode === null && server.process.signalCode === null) {
      server.process.kill('SIGTERM');
      await server.exited;
    }
  };
  try {
    const tokens = {} as Record<BenchUser, string>;
    for (const user of BENCH_USERS) tokens[user] = await signIn(baseUrl, `${user}@example.com`);
    return { baseUrl, tokens, startMs, stop };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function main() {
  await (ensureServerBuild as (o: { quiet: boolean }) => Promise<boolean>)({ quiet: true });
  (ensureWebBuild as (o: { quiet: boolean }) => unknown)({ quiet: true });
  const databaseUrl = process.env.DATABASE_URL;
  const machine = {
    cpus: os.cpus().length,
    cpuModel: os.cpus()[0]?.model.trim() ?? 'unknown CPU',
    memoryGb: +(os.totalmem() / 1024 ** 3).toFixed(1),
    platform: `${os.type()} ${os.release()}`,
    node: process.version,
    loadAvg1m: +(os.loadavg()[0] ?? 0).toFixed(2),
  };
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pbo-bench-'));
  let server: Awaited<ReturnType<typeof signedInServer>> | undefined;
  try {
    let firstStartMs: number;
    let laterStarts: LaterStarts | null = null;
    let picks: Picks & { size: DatabaseSize };
    if (databaseUrl) {
      // That database as it is (e.g. after npm run seed:scale); the first start adds the demo staff if missing.
      server = await signedInServer({ DATABASE_URL: databaseUrl, DATA_DIR: dataDir });
      firstStartMs = server.startMs;
      const database = await openPostgres(databaseUrl, { max: 1 });
      try {
        picks = await pickScenarioIds(database);
      } finally {
        await database.close();
      }
    } else {
      // A fresh data directory: the first start seeds the demo data; later starts through `npm start` as a person
      // runs it; then the ids are read from it while no server holds it, and the scenarios run on a new start.
      const first = await signedInServer({ DATA_DIR: dataDir });
      firstStartMs = first.startMs;
      await first.stop();
      laterStarts = await (measureLaterStarts as (o: object) => Promise<LaterStarts>)({
        dataDir,
        runs: LATER_STARTS,
        via: 'npm',
      });
      const database = await openPglite({ dataDir: path.join(dataDir, 'pgdata') });
      try {
        picks = await pickScenarioIds(database);
      } finally {
        await database.close();
      }
      server = await signedInServer({ DATA_DIR: dataDir });
    }
    const { size, ...scenarioPicks } = picks;
    console.log(`bench: ${seconds} s per scenario, picked ${JSON.stringify(scenarioPicks)}`);
    const { rows, bare } = await runScenarios(server.baseUrl, server.tokens, scenarioPicks, databaseUrl);
    // The load soak (issue 19): on PostgreSQL, after the scenarios, on the same server.
    const soakSection = databaseUrl && !skipSoak ? await soak(server.baseUrl, databaseUrl) : null;
    if (!databaseUrl) console.log('soak: skipped (it runs on PostgreSQL: set DATABASE_URL)');
    await server.stop();
    if (only !== null) {
      console.table(rows.map(({ path: _path, requests: _requests, ...r }) => r));
      console.log(`--only ${JSON.stringify(only)}: nothing written`);
      return;
    }
    // The billing run at volume (issue 14), in a scratch database beside the benched one (PostgreSQL only).
    let billing: BillingBench | null = null;
    if (databaseUrl) {
      console.log('billing run: 100,000 due plans in a scratch database…');
      billing = await benchBilling(databaseUrl);
      console.log(
        `billing run: ${billing.run.perSecond.toLocaleString('en-US')} invoices/s; raw INSERT … SELECT ${billing.raw.perSecond.toLocaleString('en-US')}/s; ratio ${billing.ratio}`,
      );
    }
    const report: Report = {
      at: new Date().toISOString(),
      machine,
      database: { kind: databaseUrl ? 'postgres' : 'pglite', ...size },
      picks: scenarioPicks,
      secondsPerScenario: seconds,
      firstStartToHealthyMs: firstStartMs,
      laterStartToHealthy: laterStarts && {
        command: 'npm start',
        medianMs: laterStarts.medianLaterStartMs,
        runsMs: laterStarts.laterStartsMs,
        targetMs: LATER_START_TARGET_MS,
        meetsTarget: laterStarts.medianLaterStartMs <= LATER_START_TARGET_MS,
      },
      bare,
      http: rows,
      billing,
      bundle: bundleReport(path.join(ROOT, 'apps/web/dist')),
      soak: soakSection,
    };
    console.table([...bare, ...rows].map(({ path: _path, requests: _requests, ...r }) => r));
    const b = report.bundle;
    if (b.firstRoute && b.largestRouteChunk) {
      console.log(
        `web bundle: first route ${b.firstRoute.route} ${b.firstRoute.jsGzipKb} kB gzip JS (≤ ${b.firstRoute.targetKb}), ` +
          `largest route chunk ${b.largestRouteChunk.module} ${b.largestRouteChunk.gzipKb} kB (≤ ${b.largestRouteChunk.targetKb}): ` +
          (b.meetsTarget ? 'targets hold' : 'a target is MISSED'),
      );
    } else console.log(`web bundle: ${b.note}`);
    console.log(`first start → healthy: ${firstStartMs} ms`);
    if (laterStarts) {
      console.log(
        `later start (npm start) → healthy: median ${laterStarts.medianLaterStartMs} ms of ${laterStarts.laterStartsMs.join(', ')} (target < ${LATER_START_TARGET_MS} ms)`,
      );
    }
    mkdirSync(path.join(ROOT, 'bench/results'), { recursive: true });
    writeFileSync(path.join(ROOT, 'bench/results/latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    updateReadme(report);
    if (soakSection) updateSoakReadme(soakSection);
    console.log('written: bench/results/latest.json, bench/README.md');
  } finally {
    await server?.stop();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

if (soakOnly) await soakAlone(process.env.DATABASE_URL);
else await main();
