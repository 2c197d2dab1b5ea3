/**
 * The load soak (issue 19 point 5, decision 135): many concurrent staff sessions, each a loop of mixed traffic
 * (customer search, customer page, invoices list, saving its own draft order, failed payments list) for a fixed
 * time against the running bench server. Every answer must be 2xx; latency per kind; the server's heap after a full
 * collection (GET /api/bench/heap) before and after the traffic, whose growth must stay under a stated bound.
 */
import { performance } from 'node:perf_hooks';
import { blankOrder } from '@pos/domain';

/** The demo users whose sessions make the traffic (each has every privilege the mix needs): round robin. */
export const SOAK_USERS = ['support', 'ar', 'care'] as const;
/** Heap growth (after a full collection, end minus start) the soak holds the server to. */
export const SOAK_HEAP_BOUND_MB = 50;
/** A request slower than this counts as an error. */
const SOAK_TIMEOUT_MS = 10_000;

export interface SoakOptions {
  baseUrl: string;
  sessions: number;
  seconds: number;
  /** Sign one demo user in (username@example.com) and answer the session token. */
  signIn: (email: string) => Promise<string>;
  /** Real ids and texts of the database being soaked. */
  customerIds: readonly number[];
  searchTexts: readonly string[];
}

export interface SoakKindResult {
  kind: string;
  count: number;
  errors: number;
  reqPerSec: number;
  p50Ms: number;
  p95Ms: number;
  p99Ms: number;
}

export interface SoakReport {
  sessions: number;
  users: readonly string[];
  seconds: number;
  kinds: SoakKindResult[];
  total: SoakKindResult;
  /** The first few failures (status and path with the token cut out), to say what went wrong. */
  errorSamples: string[];
  heap: { startMb: number; endMb: number; growthMb: number; boundMb: number; rssStartMb: number; rssEndMb: number };
  meetsTarget: boolean;
}

interface Session {
  token: string;
  cookie: string;
  xsrf: string;
  draftId: number;
  draftVersion: number;
}

type Call = { method: 'GET' | 'POST'; path: string; body?: unknown };

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)]!;
const mb = (bytes: number) => +(bytes / 1024 / 1024).toFixed(1);
const percentile = (sorted: number[], p: number) =>
  sorted.length === 0 ? 0 : +sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!.toFixed(1);

/** The draft every session saves over and over (a realistic partial order document). */
function draftDocument(n: number, saves: number) {
  const doc = blankOrder();
  doc.CustomerInfo = {
    ...doc.CustomerInfo,
    firstName: 'Soak',
    lastName: `Session ${n}`,
    email: `soak.${n}@example.com`,
    phone: String(5125550000 + (saves % 10_000)),
  };
  doc.noOfTerminals = 1 + (saves % 3);
  return doc;
}

/** The mix, by weight: what a support desk does all day. */
const MIX: Array<{ kind: string; weight: number; call: (s: Session, o: SoakOptions, n: number) => Call | 'save' }> = [
  {
    kind: 'customer search',
    weight: 30,
    call: (s, o) => ({
      method: 'GET',
      path: `/api/customers/${s.token}/all?search=${encodeURIComponent(pick(o.searchTexts))}`,
    }),
  },
  {
    kind: 'customer page',
    weight: 25,
    call: (s, o) => ({ method: 'GET', path: `/api/customers/${pick(o.customerIds)}/${s.token}` }),
  },
  { kind: 'invoices list', weight: 20, call: (s) => ({ method: 'GET', path: `/api/invoices/${s.token}?limit=25` }) },
  { kind: 'order save (draft)', weight: 10, call: () => 'save' },
  {
    kind: 'failed payments list',
    weight: 15,
    call: (s) => ({ method: 'GET', path: `/api/payments/failed/${s.token}?limit=25` }),
  },
];
const TOTAL_WEIGHT = MIX.reduce((sum, m) => sum + m.weight, 0);

function pickKind(): (typeof MIX)[number] {
  let r = Math.random() * TOTAL_WEIGHT;
  for (const m of MIX) {
    r -= m.weight;
    if (r < 0) return m;
  }
  return MIX[0]!;
}

async function request(
  baseUrl: string,
  session: Pick<Session, 'cookie' | 'xsrf'>,
  call: Call,
): Promise<{ status: number; body: unknown }> {
  const headers: Record<string, string> = { cookie: session.cookie };
  if (call.method !== 'GET') {
    headers['x-xsrf-token'] = session.xsrf;
    headers['content-type'] = 'application/json';
  }
  const res = await fetch(`${baseUrl}${call.path}`, {
    method: call.method,
    headers,
    body: call.body === undefined ? undefined : JSON.stringify(call.body),
    signal: AbortSignal.timeout(SOAK_TIMEOUT_MS),
  });
  const text = await res.text();
  let body: unknown = text;
  try {
    body = JSON.parse(text);
  } catch {
    // not JSON (an error page): kept as text
  }
  return { status: res.status, body };
}

async function xsrfPair(baseUrl: string): Promise<{ cookie: string; xsrf: string }> {
  const health = await fetch(`${baseUrl}/api/health`);
  const xsrf = /XSRF-TOKEN=([^;]+)/.exec(health.headers.get('set-cookie') ?? '')?.[1];
  if (!xsrf) throw new Error('no XSRF cookie from /api/health');
  return { cookie: `XSRF-TOKEN=${xsrf}`, xsrf };
}

async function heapMb(baseUrl: string): Promise<{ heap: number; rss: number }> {
  const res = await fetch(`${baseUrl}/api/bench/heap`);
  if (!res.ok) throw new Error(`GET /api/bench/heap → ${res.status} (is BENCH_ROUTES set?)`);
  const { info } = (await res.json()) as { info: { heap_used_bytes: number; rss_bytes: number } };
  return { heap: mb(info.heap_used_bytes), rss: mb(info.rss_bytes) };
}

/** Save the session's draft; a new draft on first use. Answers the HTTP status. */
async function saveDraft(o: SoakOptions, s: Session, n: number, saves: number): Promise<number> {
  const isNew = s.draftId === 0;
  const res = await request(o.baseUrl, s, {
    method: 'POST',
    path: `/api/customers/orderinfo/${isNew ? 'new' : s.draftId}/${s.token}`,
    body: { json: draftDocument(n, saves), ...(isNew ? {} : { version: s.draftVersion }) },
  });
  if (res.status === 200) {
    const info = (res.body as { info: { orderInfoId: number; version: number } }).info;
    s.draftId = info.orderInfoId;
    s.draftVersion = info.version;
  }
  return res.status;
}

export async function runSoak(o: SoakOptions): Promise<SoakReport> {
  // Sessions: each its own sign-in (its own session token and XSRF pair), users in turn.
  const sessions: Session[] = [];
  for (let i = 0; i < o.sessions; i++) {
    const user = SOAK_USERS[i % SOAK_USERS.length]!;
    const token = await o.signIn(`${user}@example.com`);
    sessions.push({ token, ...(await xsrfPair(o.baseUrl)), draftId: 0, draftVersion: 0 });
  }
  // Warm-up (not measured): every session makes each kind of call once, so its draft exists and the server's
  // caches and compiled code are in place before the heap's first reading.
  await Promise.all(
    sessions.map(async (s, n) => {
      for (const m of MIX) {
        const call = m.call(s, o, n);
        const status = call === 'save' ? await saveDraft(o, s, n, 0) : (await request(o.baseUrl, s, call)).status;
        if (status >= 300) throw new Error(`soak warm-up: ${m.kind} → ${status}`);
      }
    }),
  );
  const start = await heapMb(o.baseUrl);

  const times = new Map<string, number[]>(MIX.map((m) => [m.kind, []]));
  const errors = new Map<string, number>(MIX.map((m) => [m.kind, 0]));
  const errorSamples: string[] = [];
  const deadline = performance.now() + o.seconds * 1000;
  await Promise.all(
    sessions.map(async (s, n) => {
      let saves = 1;
      while (performance.now() < deadline) {
        const m = pickKind();
        const call = m.call(s, o, n);
        const began = performance.now();
        let status: number;
        try {
          status = call === 'save' ? await saveDraft(o, s, n, saves++) : (await request(o.baseUrl, s, call)).status;
        } catch (err) {
          status = 0;
          if (errorSamples.length < 10) errorSamples.push(`${m.kind}: ${(err as Error).message}`);
        }
        times.get(m.kind)!.push(performance.now() - began);
        if (status < 200 || status >= 300) {
          errors.set(m.kind, errors.get(m.kind)! + 1);
          if (status !== 0 && errorSamples.length < 10) errorSamples.push(`${m.kind}: HTTP ${status}`);
        }
      }
    }),
  );
  const end = await heapMb(o.baseUrl);

  const result = (kind: string, all: number[], errs: number): SoakKindResult => {
    const sorted = [...all].sort((a, b) => a - b);
    return {
      kind,
      count: sorted.length,
      errors: errs,
      reqPerSec: Math.round(sorted.length / o.seconds),
      p50Ms: percentile(sorted, 50),
      p95Ms: percentile(sorted, 95),
      p99Ms: percentile(sorted, 99),
    };
  };
  const kinds = MIX.map((m) => result(m.kind, times.get(m.kind)!, errors.get(m.kind)!));
  const total = result(
    'all',
    [...times.values()].flat(),
    [...errors.values()].reduce((a, b) => a + b, 0),
  );
  const growthMb = +(end.heap - start.heap).toFixed(1);
  return {
    sessions: o.sessions,
    users: SOAK_USERS,
    seconds: o.seconds,
    kinds,
    total,
    errorSamples,
    heap: {
      startMb: start.heap,
      endMb: end.heap,
      growthMb,
      boundMb: SOAK_HEAP_BOUND_MB,
      rssStartMb: start.rss,
      rssEndMb: end.rss,
    },
    meetsTarget: total.errors === 0 && total.count > 0 && growthMb < SOAK_HEAP_BOUND_MB,
  };
}

/** The soak as a markdown section of bench/README.md. */
export function soakMarkdown(report: SoakReport, heading: string): string {
  const h = report.heap;
  return [
    heading,
    '',
    `${report.sessions} concurrent sessions (${report.users.join(', ')} in turn) × ${report.seconds} s of mixed traffic: ` +
      `**${report.total.count.toLocaleString('en-US')} requests, ${report.total.errors} errors**, ${report.total.reqPerSec} req/s, ` +
      `p50 ${report.total.p50Ms} ms, p95 ${report.total.p95Ms} ms, p99 ${report.total.p99Ms} ms. ` +
      `Server heap after a full collection: ${h.startMb} MB at the start, ${h.endMb} MB at the end, growth ${h.growthMb} MB ` +
      `(bound < ${h.boundMb} MB; RSS ${h.rssStartMb} → ${h.rssEndMb} MB): ${report.meetsTarget ? 'met' : '**missed**'}.`,
    '',
    '| kind | requests | errors | req/s | p50 ms | p95 ms | p99 ms |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...[...report.kinds, report.total].map(
      (k) => `| ${k.kind} | ${k.count} | ${k.errors} | ${k.reqPerSec} | ${k.p50Ms} | ${k.p95Ms} | ${k.p99Ms} |`,
    ),
    ...(report.errorSamples.length ? ['', `First errors: ${report.errorSamples.join('; ')}.`] : []),
  ].join('\n');
}
