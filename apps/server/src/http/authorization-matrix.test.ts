import { ROLES, effectivePrivileges, hasAnyPermission, type Role } from '@pos/domain';
import { eq } from 'drizzle-orm';
import type { HTTPMethods, RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createAgent,
  createDistributorAccount,
  createOrder,
  createPromotion,
  createSalesPerson,
  createStaffUser,
  createStore,
} from '../db/factories';
import { sessions } from '../db/schema';
import { signIn } from '../test/sign-in';
import { createTestApp, type TestApp } from '../test/test-app';
import { insertUpload } from '../test/uploads';
import { AUTHORIZATION_MATRIX, type Access } from './authorization-matrix.table';
import { SESSION_GUARD } from './session';
import { hashToken } from '../lib/tokens';

/*
 * The authorization matrix (issue 19 part 1, decision 132): every registered route × every kind of caller →
 * allowed or denied, checked against the reviewed table in `authorization-matrix.table.ts`. Generated from the
 * routes the app registers, so a new route without an entry fails here, naming itself.
 */

interface Caller {
  readonly label: string;
  /** null: no live session (no, malformed, released or expired token). */
  readonly kind: 'staff' | 'distributor' | 'maketoken' | null;
  readonly role: Role | null;
  readonly privileges: readonly string[];
  token: string;
}

const INVALID_CALLERS = ['no token', 'malformed token', 'unknown token', 'released token', 'expired token'] as const;

/** May this caller pass the entry's rule? */
function mayCall(access: Access, caller: Caller): boolean {
  if (access.kind === 'public') return true;
  if (caller.kind === null) return false;
  if (access.staff && caller.kind !== 'staff') return false;
  if (access.roles && !(caller.role !== null && access.roles.includes(caller.role))) return false;
  if (access.anyOf && !hasAnyPermission(caller.privileges, access.anyOf)) return false;
  return true;
}

interface Ids {
  customer: number;
  store: number;
  order: number;
  salesPerson: number;
  promotion: number;
  spareAgent: number;
  upload: string;
}

/** A path parameter's value: an existing record where the route names one, else a harmless id. */
function paramValue(url: string, name: string, ids: Ids): string {
  switch (name) {
    case 'storeId':
      return String(ids.store);
    case 'orderId':
    case 'orderInfoId':
      return String(ids.order);
    case 'agentId':
      // Never the caller's own agent: deactivating it would end the distributor sessions.
      return String(ids.spareAgent);
    case 'agentName':
      return 'Spare';
    case 'jobId':
      return '00000000-0000-4000-8000-000000000000';
    case 'queue':
      return 'no-such-queue';
    case 'code':
      return 'NOPROMO';
    case 'x':
      return 'K'.repeat(43);
    case 'tok':
      return 'T'.repeat(43);
    case 'id':
      if (/^\/api\/(customers|customerinfo)\/:id/.test(url)) return String(ids.customer);
      if (url.startsWith('/api/storeinfo/')) return String(ids.store);
      if (/^\/api\/(salesperson|saleshistory|reports\/sales\/reps)\//.test(url)) return String(ids.salesPerson);
      if (url.startsWith('/api/promotions/')) return String(ids.promotion);
      if (url.startsWith('/api/uploads/')) return ids.upload;
      return '999999';
    default:
      return '999999';
  }
}

function fillUrl(url: string, token: string, ids: Ids): string {
  return url
    .split('/')
    .map((segment) => {
      if (segment === '*') return 'index.html';
      if (!segment.startsWith(':')) return segment;
      return segment === ':token' ? token : paramValue(url, segment.slice(1), ids);
    })
    .join('/');
}

const BODYLESS = new Set(['GET', 'HEAD', 'DELETE', 'OPTIONS']);
const WEB_APP_ROUTES = new Set(['GET /', 'GET /*']);
const name = (r: { method: string; url: string }) => `${r.method} ${r.url}`;

describe('authorization matrix: every route × every caller against the expected table', () => {
  let t: TestApp;
  const registered: Array<{ method: string; url: string; guarded: boolean }> = [];
  const callers: Caller[] = [];
  let ids: Ids;

  beforeAll(async () => {
    t = await createTestApp({
      onRoute(route: RouteOptions) {
        const hooks = ([] as unknown[]).concat(route.onRequest ?? []);
        const guarded = hooks.some((h) => typeof h === 'function' && SESSION_GUARD in h);
        for (const method of ([] as HTTPMethods[]).concat(route.method))
          if (method !== 'HEAD') registered.push({ method, url: route.url, guarded });
      },
    });
    const db = t.database.db;

    // The records the path parameters name.
    const store = await createStore(db);
    const order = await createOrder(db, { storeId: store.id });
    const salesPerson = await createSalesPerson(db);
    const promotion = await createPromotion(db);
    const spareAgent = await createAgent(db, { type: 'Distributor', name: 'Spare Agent' });
    // The order's contract PDF, named by its public id: any session passes the guard; the owner rule then serves it
    // (200) to a session that may read the order and answers 404 to every other (access/uploads.ts, decision 140).
    const pdf = Buffer.from('%PDF-1.7\n% matrix contract\n');
    await t.app.ctx.storage.put('matrix/contract.pdf', pdf, 'application/pdf');
    const upload = await insertUpload(db, {
      kind: 'contract',
      originalName: 'contract.pdf',
      contentType: 'application/pdf',
      sizeBytes: pdf.length,
      storageKey: 'matrix/contract.pdf',
      ownerType: 'order',
      ownerId: String(order.id),
      createdByEmail: 'someone-else@example.com',
    });
    ids = {
      customer: store.customerId,
      store: store.id,
      order: order.id,
      salesPerson: salesPerson.id,
      promotion: promotion.id,
      spareAgent: spareAgent.id,
      upload: upload.publicId,
    };

    // No live session.
    const admin = await createStaffUser(db, { email: 'matrix-admin@example.com', role: 'Admin' });
    const released = await signIn(t, admin.email);
    await t.request({ method: 'GET', url: `/api/auth/logout/${released}` });
    const expired = await signIn(t, admin.email);
    await db
      .update(sessions)
      .set({ expiresAt: new Date(t.clock.now().getTime() - 1000) })
      .where(eq(sessions.tokenHash, hashToken(expired)));
    const invalid: Record<(typeof INVALID_CALLERS)[number], string> = {
      'no token': '',
      'malformed token': encodeURIComponent("'; drop table sessions; -- <script>"),
      'unknown token': 'Q'.repeat(43),
      'released token': released,
      'expired token': expired,
    };
    for (const label of INVALID_CALLERS)
      callers.push({ label, kind: null, role: null, privileges: [], token: invalid[label] });

    // One staff user of each role (the agent roles tied to an agent, as the demo's are).
    for (const role of ROLES) {
      const agentId = role === 'Distributor' || role === 'RDC' ? (await createAgent(db, { type: role })).id : null;
      const email = `matrix-role-${role.toLowerCase().replace(/\W+/g, '-')}@example.com`;
      await createStaffUser(db, { email, role, agentId });
      callers.push({
        label: `staff ${role}`,
        kind: 'staff',
        role,
        privileges: effectivePrivileges(role),
        token: await signIn(t, email),
      });
    }

    // A distributor login.
    const account = await createDistributorAccount(db, {
      email: 'matrix-distributor@example.com',
      password: 'pw-matrix-1',
    });
    const login = await t.request({
      method: 'POST',
      url: '/api/auth/distributor/login',
      payload: { email: account.email, password: 'pw-matrix-1' },
    });
    expect(login.statusCode, login.body).toBe(200);
    callers.push({
      label: 'distributor login',
      kind: 'distributor',
      role: 'Distributor',
      privileges: effectivePrivileges('Distributor'),
      token: login.json().info.token as string,
    });

    // A make-token session (an integration key of a Distributor agent).
    const adminToken = await signIn(t, admin.email);
    const keyAgent = await createAgent(db, { type: 'Distributor', name: 'Key Agent' });
    const made = await t.request({
      method: 'POST',
      url: `/api/auth/integrationkeys/${adminToken}`,
      payload: { name: 'Matrix CRM', agent_id: keyAgent.id },
    });
    expect(made.statusCode, made.body).toBe(201);
    const gettoken = await t.request({ method: 'GET', url: `/api/auth/${made.json().info.key as string}/gettoken` });
    expect(gettoken.statusCode, gettoken.body).toBe(200);
    callers.push({
      label: 'make-token session',
      kind: 'maketoken',
      role: 'Distributor',
      privileges: effectivePrivileges('Distributor'),
      token: gettoken.json().info.token as string,
    });
  }, 60_000);
  afterAll(() => t.close());

  it('every registered route has an entry, and every entry a route', () => {
    const names = new Set(registered.map(name));
    const missing = [...names].filter((n) => !(n in AUTHORIZATION_MATRIX));
    // The web app's routes exist only once it is built: their entries are never stale.
    const stale = Object.keys(AUTHORIZATION_MATRIX).filter((n) => !names.has(n) && !WEB_APP_ROUTES.has(n));
    expect(
      missing.map(
        (n) =>
          `${n} has no entry: add \`'${n}': perms(...)\` (or SESSION, STAFF, roles(...), PUBLIC) to AUTHORIZATION_MATRIX in apps/server/src/http/authorization-matrix.table.ts`,
      ),
    ).toEqual([]);
    expect(stale.map((n) => `${n} is in AUTHORIZATION_MATRIX but no longer registered: remove its entry`)).toEqual([]);
  });

  it('a PUBLIC entry is exactly a route without the session guard', () => {
    const wrong = registered
      .filter((r) => r.guarded === (AUTHORIZATION_MATRIX[name(r)]?.kind === 'public'))
      .map((r) => `${name(r)}: ${r.guarded ? 'guarded but PUBLIC in the table' : 'unguarded but not PUBLIC'}`);
    expect(wrong).toEqual([]);
  });

  it('public routes answer without a session, never 403 session_invalid or 5xx', async () => {
    const failures: string[] = [];
    for (const r of registered.filter((x) => AUTHORIZATION_MATRIX[name(x)]?.kind === 'public')) {
      const res = await t.request({
        method: r.method as HTTPMethods,
        url: fillUrl(r.url, '', ids),
        ...(BODYLESS.has(r.method) ? {} : { payload: {} }),
      });
      const code = String(res.headers['content-type']).includes('json') ? res.json()?.error?.code : undefined;
      // The single-page app answers 503 where the web app is not built (as in tests).
      const appNotBuilt = WEB_APP_ROUTES.has(name(r)) && res.statusCode === 503;
      if ((res.statusCode >= 500 && !appNotBuilt) || code === 'session_invalid')
        failures.push(`${name(r)} → ${res.statusCode} ${code}`);
    }
    expect(failures).toEqual([]);
  });

  it('every guarded route × every caller: allowed exactly as the table says', async () => {
    const started = Date.now();
    // Signing out ends the caller's session: that route goes last.
    const guarded = registered
      .filter((r) => AUTHORIZATION_MATRIX[name(r)] && AUTHORIZATION_MATRIX[name(r)]!.kind !== 'public')
      .sort((a, b) => Number(a.url.startsWith('/api/auth/logout/')) - Number(b.url.startsWith('/api/auth/logout/')));
    const failures: string[] = [];
    let calls = 0;
    for (const r of guarded) {
      const access = AUTHORIZATION_MATRIX[name(r)]!;
      await Promise.all(
        callers.map(async (caller) => {
          const url = fillUrl(r.url, caller.token, ids) + (access.search ? `?${access.search}` : '');
          const res = await t.request({
            method: r.method as HTTPMethods,
            url,
            ...(BODYLESS.has(r.method) && access.payload === undefined ? {} : { payload: access.payload ?? {} }),
          });
          calls++;
          const code = String(res.headers['content-type']).includes('json')
            ? (res.json() as { error?: { code?: string } })?.error?.code
            : undefined;
          const expected = mayCall(access, caller);
          const denied = res.statusCode === 401 || res.statusCode === 403;
          // Without a live session the guard answers 403 session_invalid; no token leaves an empty path segment,
          // and the router's 404 is a refusal too.
          const refused =
            caller.kind === null
              ? (res.statusCode === 403 && code === 'session_invalid') ||
                (caller.label === 'no token' && (res.statusCode === 404 || denied))
              : denied;
          const deliberate = access.deliberateError && res.statusCode === 500 && code === 'test_error';
          if (res.statusCode >= 500 && !deliberate)
            failures.push(`${name(r)} as ${caller.label} → ${res.statusCode} ${res.body}`);
          else if (expected && denied)
            failures.push(`${name(r)} as ${caller.label}: expected allowed, got ${res.statusCode} ${code}`);
          else if (!expected && !refused)
            failures.push(`${name(r)} as ${caller.label}: expected denied, got ${res.statusCode} ${code}`);
        }),
      );
    }
    console.info(`authorization matrix: ${calls} calls in ${Date.now() - started} ms`);
    expect(calls).toBeGreaterThan(guarded.length * callers.length - 1);
    expect(failures).toEqual([]);
  }, 180_000);
});
