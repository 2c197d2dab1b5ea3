import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { checkMidFormat, crmLead, MID_FORMAT_MESSAGE } from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../config';
import type { Database } from '../../db/client';
import { createStore } from '../../db/factories';
import { AppError } from '../../http/errors';
import { fixedClock } from '../../lib/clock';
import { createTestDatabase } from '../../test/db-template';
import { createHttpCrm } from './http-crm';
import { createCrm } from './index';
import { createLocalCrm, LOCAL_CRM_LEADS } from './local-crm';

describe('MID format (decision 030): 12–16 digits, spaces and dashes ignored, not all zeros', () => {
  it.each([
    ['800000001234', '800000001234'],
    ['8000 0000 1234', '800000001234'],
    ['4445-0123-4567-8901', '4445012345678901'],
    ['123456789012345', '123456789012345'],
  ])('%s is valid as %s', (input, mid) => {
    expect(checkMidFormat(input)).toEqual({ ok: true, mid });
  });
  it.each([
    ['', 'Enter the MID.'],
    ['   ', 'Enter the MID.'],
    ['12345678901', MID_FORMAT_MESSAGE],
    ['12345678901234567', MID_FORMAT_MESSAGE],
    ['8000000O1234', MID_FORMAT_MESSAGE],
    ['000000000000', 'A MID cannot be all zeros.'],
  ])('%j is refused: %s', (input, reason) => {
    expect(checkMidFormat(input)).toEqual({ ok: false, reason });
  });
});

describe('local CRM', () => {
  let database: Database;
  const clock = fixedClock('2026-11-22T12:00:00Z');
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('validates a MID by format and by uniqueness across stores, ignoring the store being edited', async () => {
    const crm = createLocalCrm({ database, clock });
    const store = await createStore(database.db, { mid: '800000004242' });
    await createStore(database.db, { mid: null });
    expect(await crm.validateMid('1234')).toEqual({ valid: false, reason: MID_FORMAT_MESSAGE });
    expect(await crm.validateMid('800000009999')).toEqual({ valid: true });
    expect(await crm.validateMid('8000-0000-4242')).toEqual({
      valid: false,
      reason: `MID 800000004242 is already used by store ${store.id}.`,
    });
    expect(await crm.validateMid('800000004242', { excludeStoreId: store.id })).toEqual({ valid: true });
    expect(await crm.validateMid('800000004242', { excludeStoreId: store.id + 1 })).toMatchObject({ valid: false });
  });

  it('records a feature-change request in the audit log and answers a CRM reference', async () => {
    const crm = createLocalCrm({ database, clock });
    const { reference } = await crm.requestFeatureChange({
      storeId: 500001,
      customerId: 42,
      features: ['eWIC', 'No Ads'],
      requestedBy: 'ops@example.org',
      notes: 'trial month',
    });
    expect(reference).toMatch(/^CRM-20261122-[0-9A-F]{8}$/);
    const rows = await database.query<{
      action: string;
      actor_type: string;
      actor_email: string;
      customer_id: number | null;
      after: unknown;
    }>(
      `select action, actor_type, actor_email, customer_id, after from audit_log where entity = 'crm_request' and entity_id = $1`,
      [reference],
    );
    expect(rows).toEqual([
      {
        action: 'request_feature_change',
        actor_type: 'system',
        actor_email: 'ops@example.org',
        customer_id: 42,
        after: {
          reference,
          storeId: 500001,
          customerId: 42,
          features: ['eWIC', 'No Ads'],
          requestedBy: 'ops@example.org',
          notes: 'trial month',
        },
      },
    ]);
    const second = await crm.requestFeatureChange({
      storeId: 500001,
      customerId: 42,
      features: ['eWIC'],
      requestedBy: 'ops@example.org',
    });
    expect(second.reference).not.toBe(reference);
  });

  it('answers its demo leads (US and Canadian) and null for any other id (decision 159)', async () => {
    const crm = createLocalCrm({ database, clock });
    expect(await crm.getLead('5000001')).toEqual(LOCAL_CRM_LEADS[0]);
    expect(await crm.getLead('5000001')).toMatchObject({
      legal_name: 'Maple Street Grocers LLC',
      dba: 'Maple Street Market',
      country: 'US',
      state: 'NY',
      sales_rep_email: 'rep.north@example.com',
    });
    expect(await crm.getLead('5000003')).toMatchObject({ country: 'CA', state: 'QC', zip: 'H2T 1R8' });
    expect(LOCAL_CRM_LEADS.map((l) => crmLead.parse(l))).toEqual(LOCAL_CRM_LEADS);
    expect(await crm.getLead('5999999')).toBeNull();
    expect(await crm.getLead('')).toBeNull();
  });

  it('createCrm picks the local adapter without CRM_URL and the HTTP one with it', async () => {
    const local = createCrm(loadConfig({ NODE_ENV: 'test' }), { database, clock });
    expect(await local.validateMid('1')).toMatchObject({ valid: false });
    const http = createCrm(loadConfig({ NODE_ENV: 'test', CRM_URL: 'http://127.0.0.1:1', CRM_TIMEOUT_MS: '500' }), {
      database,
      clock,
    });
    await expect(http.validateMid('800000001234')).rejects.toMatchObject({ code: 'unavailable' });
  });
});

describe('HTTP CRM (CRM_URL) against a local server', () => {
  let server: Server;
  let url: string;
  const seen: Array<{ path: string; auth: string | undefined; body: unknown }> = [];
  let mode: 'ok' | 'slow' | 'error' | 'html' | 'shape' = 'ok';

  beforeAll(async () => {
    server = createServer((req: IncomingMessage, res: ServerResponse) => {
      let raw = '';
      req.on('data', (c: Buffer) => (raw += c.toString('utf8')));
      req.on('end', () => {
        const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
        seen.push({ path: req.url ?? '', auth: req.headers.authorization, body });
        const json = (status: number, value: unknown) => {
          res.writeHead(status, { 'content-type': 'application/json' });
          res.end(JSON.stringify(value));
        };
        if (mode === 'slow') return void setTimeout(() => json(200, { reference: 'late' }), 1000);
        if (mode === 'error') return json(500, { message: 'boom' });
        if (mode === 'html') {
          res.writeHead(200, { 'content-type': 'text/html' });
          return void res.end('<html>maintenance</html>');
        }
        if (mode === 'shape') return json(200, { ok: true });
        if (req.url === '/crm/feature-changes') return json(201, { reference: 'ZOHO-77' });
        if (req.url === '/crm/leads/7001') {
          return json(200, {
            lead: {
              id: 7001,
              company: 'Prairie Foods Ltd.',
              dba: 'Prairie Foods',
              firstName: 'Sam',
              lastName: 'Olsen',
              email: 'sam@prairie.example.com',
              phone: null,
              street: '12 Main Street',
              city: 'Regina',
              state: 'sk',
              zip: 'S4P 3Y2',
              country: 'Canada',
            },
          });
        }
        if (req.url === '/crm/mid-validations') {
          return body?.mid === '800000001234'
            ? json(200, { valid: true })
            : json(200, { valid: false, reason: 'MID unknown to the processor.' });
        }
        json(404, { message: 'no route' });
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/crm/`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const crm = (timeoutMs = 2000) => createHttpCrm({ url, apiKey: 'k-123', timeoutMs });

  it('sends feature changes and MID checks as JSON with the API key', async () => {
    mode = 'ok';
    seen.length = 0;
    expect(
      await crm().requestFeatureChange({ storeId: 1, customerId: 2, features: ['eWIC'], requestedBy: 'a@example.com' }),
    ).toEqual({
      reference: 'ZOHO-77',
    });
    expect(await crm().validateMid('800000001234', { excludeStoreId: 9 })).toEqual({ valid: true });
    expect(await crm().validateMid('800000009999')).toEqual({ valid: false, reason: 'MID unknown to the processor.' });
    expect(seen).toEqual([
      {
        path: '/crm/feature-changes',
        auth: 'Bearer k-123',
        body: { storeId: 1, customerId: 2, features: ['eWIC'], requestedBy: 'a@example.com' },
      },
      { path: '/crm/mid-validations', auth: 'Bearer k-123', body: { mid: '800000001234', excludeStoreId: 9 } },
      { path: '/crm/mid-validations', auth: 'Bearer k-123', body: { mid: '800000009999' } },
    ]);
  });

  it('answers a lead by GET /leads/{id} with the API key, mapped; a 404 is no lead (decision 159)', async () => {
    mode = 'ok';
    seen.length = 0;
    expect(await crm().getLead('7001')).toEqual({
      lead_id: '7001',
      legal_name: 'Prairie Foods Ltd.',
      dba: 'Prairie Foods',
      first_name: 'Sam',
      last_name: 'Olsen',
      email: 'sam@prairie.example.com',
      phone: '',
      address1: '12 Main Street',
      city: 'Regina',
      state: 'SK',
      zip: 'S4P 3Y2',
      country: 'CA',
      sales_rep_email: null,
    });
    expect(await crm().getLead('7002')).toBeNull();
    expect(seen).toEqual([
      { path: '/crm/leads/7001', auth: 'Bearer k-123', body: null },
      { path: '/crm/leads/7002', auth: 'Bearer k-123', body: null },
    ]);
  });

  it('a lead call that times out, fails or has the wrong shape → unavailable', async () => {
    mode = 'slow';
    await expect(crm(200).getLead('7001')).rejects.toMatchObject({
      code: 'unavailable',
      message: 'The CRM is unavailable (no answer within 200 ms). Try again later.',
    });
    mode = 'error';
    await expect(crm().getLead('7001')).rejects.toMatchObject({ code: 'unavailable', message: /HTTP 500/ });
    mode = 'shape';
    await expect(crm().getLead('7001')).rejects.toMatchObject({ code: 'unavailable', message: /unexpected shape/ });
  });

  it('a CRM that does not answer in time → unavailable', async () => {
    mode = 'slow';
    const started = Date.now();
    const err = await crm(200)
      .requestFeatureChange({ storeId: 1, customerId: 2, features: [], requestedBy: 'a@example.com' })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(AppError);
    expect(err).toMatchObject({
      code: 'unavailable',
      status: 503,
      message: 'The CRM is unavailable (no answer within 200 ms). Try again later.',
    });
    expect(Date.now() - started).toBeLessThan(900);
  });

  it('an error status, a non-JSON answer or a wrong shape → unavailable', async () => {
    for (const [m, why] of [
      ['error', 'HTTP 500'],
      ['html', 'its answer was not JSON'],
      ['shape', 'its answer had an unexpected shape'],
    ] as const) {
      mode = m;
      await expect(crm().validateMid('800000001234')).rejects.toMatchObject({
        code: 'unavailable',
        message: `The CRM is unavailable (${why}). Try again later.`,
      });
    }
  });

  it('an unreachable CRM → unavailable', async () => {
    const closed = createHttpCrm({ url: 'http://127.0.0.1:1', apiKey: null, timeoutMs: 1000 });
    await expect(closed.validateMid('800000001234')).rejects.toMatchObject({
      code: 'unavailable',
      message: 'The CRM is unavailable (it could not be reached). Try again later.',
    });
  });

  it('config: CRM_URL must be a URL; CRM_API_KEY needs CRM_URL', () => {
    expect(() => loadConfig({ NODE_ENV: 'test', CRM_URL: 'crm.local' })).toThrow(
      /CRM_URL: must be an http:\/\/ or https:\/\/ URL/,
    );
    expect(() => loadConfig({ NODE_ENV: 'test', CRM_API_KEY: 'x' })).toThrow(/CRM_API_KEY: set without CRM_URL/);
    expect(loadConfig({ NODE_ENV: 'test', CRM_URL: 'https://crm.example.com/api', CRM_API_KEY: 'x' }).crm).toEqual({
      url: 'https://crm.example.com/api',
      apiKey: 'x',
      timeoutMs: 5000,
    });
  });
});
