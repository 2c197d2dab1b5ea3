import { mkdtempSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { AppError } from './http/errors';
import { createTestApp, type TestApp } from './test/test-app';

describe('server shell', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({
      beforeReady(app) {
        // Routes that exist only in this test, to drive the shared error handling.
        app.post(
          '/api/__test/echo',
          { schema: { body: z.object({ email: z.email(), age: z.number().int().min(0) }) } },
          async (req) => ({ info: req.body }),
        );
        app.get('/api/__test/boom', async () => {
          throw new Error('secret internal detail: password=hunter2');
        });
        app.get('/api/__test/missing', async () => {
          throw new AppError('not_found', 'Customer 42 was not found.');
        });
      },
    });
  });
  afterAll(() => t.close());

  it('answers /api/health with the success envelope and issues the XSRF cookie', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ info: { status: 'ok', version: expect.any(String), database: t.database.kind } });
    const cookie = res.cookies.find((c) => c.name === 'XSRF-TOKEN');
    expect(cookie?.value).toMatch(/^[A-Za-z0-9_-]{20,}$/);
    expect(cookie?.sameSite).toBe('Strict');
  });

  it('does not issue a new XSRF cookie when the request has one', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    expect(res.cookies.find((c) => c.name === 'XSRF-TOKEN')).toBeUndefined();
  });

  it('sends the security headers', async () => {
    const res = await t.app.inject({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).toContain("default-src 'self'");
    // Plain HTTP: no HSTS (it is sent on HTTPS answers: security.test.ts).
    expect(res.headers['strict-transport-security']).toBeUndefined();
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('says the business day on every API answer: the day in BILLING_TIME_ZONE, not UTC (issue 30)', async () => {
    const before = t.clock.now();
    try {
      // 01:30 UTC on Nov 28 is still the evening of Nov 27 in New York (the default zone).
      t.clock.set('2026-11-28T01:30:00Z');
      const late = await t.app.inject({ method: 'GET', url: '/api/health' });
      expect(late.headers['x-business-date']).toBe('2026-11-27');
      t.clock.set('2026-11-28T05:00:00Z');
      const error = await t.request({ method: 'GET', url: '/api/__test/missing' });
      expect(error.statusCode).toBe(404);
      expect(error.headers['x-business-date']).toBe('2026-11-28');
    } finally {
      t.clock.set(before);
    }
  });

  it('refuses a non-GET request without the XSRF header, before reading its body', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/__test/echo',
      payload: { email: 'a@example.com', age: 3 },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('xsrf_mismatch');
  });

  it('refuses a non-GET request whose XSRF header does not match the cookie', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/__test/echo',
      headers: { cookie: 'XSRF-TOKEN=aaaaaaaaaaaaaaaaaaaaaaaa', 'x-xsrf-token': 'bbbbbbbbbbbbbbbbbbbbbbbb' },
      payload: { email: 'a@example.com', age: 3 },
    });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('xsrf_mismatch');
  });

  it('accepts a valid body with the XSRF pair', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/__test/echo',
      payload: { email: 'a@example.com', age: 3 },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ info: { email: 'a@example.com', age: 3 } });
  });

  it('answers malformed JSON with 400 invalid_json', async () => {
    const res = await t.request({
      method: 'POST',
      url: '/api/__test/echo',
      headers: { 'content-type': 'application/json' },
      payload: '{"email": "a@example.com",',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({ error: { code: 'invalid_json', message: expect.stringMatching(/not valid JSON/) } });
  });

  it('answers a body that breaks the contract with 400 and a message per field', async () => {
    const res = await t.request({ method: 'POST', url: '/api/__test/echo', payload: { email: 'nope', age: -1 } });
    expect(res.statusCode).toBe(400);
    const body = res.json();
    expect(body.error.code).toBe('validation_failed');
    expect(Object.keys(body.error.fields).sort()).toEqual(['age', 'email']);
    expect(body.error.message).toMatch(/email/);
  });

  it('answers an unknown /api route with 404 route_not_found, for GET and POST', async () => {
    const get = await t.request({ method: 'GET', url: '/api/nothing/here' });
    expect(get.statusCode).toBe(404);
    expect(get.json().error.code).toBe('route_not_found');
    const post = await t.request({ method: 'POST', url: '/api/nothing/here', payload: { a: 1 } });
    expect(post.statusCode).toBe(404);
    expect(post.json().error.code).toBe('route_not_found');
    // Even without the XSRF pair an unknown route is a 404, not a 403.
    const bare = await t.app.inject({ method: 'DELETE', url: '/api/nothing' });
    expect(bare.statusCode).toBe(404);
  });

  it('answers a missing record with 404 not_found', async () => {
    const res = await t.request({ method: 'GET', url: '/api/__test/missing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ error: { code: 'not_found', message: 'Customer 42 was not found.' } });
  });

  it('hides the internals of an unexpected error behind a 500 with a reference', async () => {
    const res = await t.request({ method: 'GET', url: '/api/__test/boom' });
    expect(res.statusCode).toBe(500);
    const body = res.json();
    expect(body.error.code).toBe('internal');
    expect(JSON.stringify(body)).not.toContain('hunter2');
    expect(body.error.message).toContain(res.headers['x-request-id'] as string);
  });

  it('never writes a path token into a log line', async () => {
    const token = 'Zx8_kP2qLmN4rT6vB1cD3eF5gH7jK9sAwQyUiOo0pE';
    t.logs.length = 0;
    await t.request({ method: 'GET', url: `/api/auth/validate/${token}` });
    await t.request({ method: 'GET', url: `/api/customers/12/${token}/transactions?storeid=4` });
    await t.request({ method: 'POST', url: `/api/customers/ordernotes/${token}`, payload: {} });
    const text = JSON.stringify(t.logs);
    expect(t.logs.filter((l) => l.msg === 'request')).toHaveLength(3);
    expect(text).not.toContain(token);
    expect(text).toContain('/api/customers/12/[redacted]/transactions?storeid=4');
  });

  it('serves an OpenAPI document generated from the contracts', async () => {
    const res = await t.request({ method: 'GET', url: '/api/openapi.json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(doc.paths['/api/health'].get.responses['200']).toBeDefined();
  });
});

describe('serving the web app', () => {
  it('serves index.html at / (never cached) and hashed assets for a year', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'pbo-dist-'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>pos-backoffice</title>');
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'assets', 'app-abc123.js'), 'console.log(1)');
    const t = await createTestApp({ config: { webDist: dist } });
    try {
      const index = await t.request({ method: 'GET', url: '/' });
      expect(index.statusCode).toBe(200);
      expect(index.body).toContain('<title>pos-backoffice</title>');
      expect(index.headers['cache-control']).toBe('no-cache');
      const asset = await t.request({ method: 'GET', url: '/assets/app-abc123.js' });
      expect(asset.headers['cache-control']).toContain('immutable');
      const api404 = await t.request({ method: 'GET', url: '/api/unknown' });
      expect(api404.json().error.code).toBe('route_not_found');
    } finally {
      await t.close();
    }
  });

  it('sends the brotli or gzip copy the build made, by Accept-Encoding (Vary), with the same cache rules', async () => {
    const dist = mkdtempSync(path.join(os.tmpdir(), 'pbo-dist-'));
    const js = `console.log(${JSON.stringify('x'.repeat(4000))});`;
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>pos-backoffice</title>');
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'assets', 'index-abc123.js'), js);
    const { precompress } = await import('../../../scripts/precompress.mjs');
    expect(precompress(dist).files).toBe(1);
    const t = await createTestApp({ config: { webDist: dist } });
    try {
      const asset = (encoding?: string) =>
        t.request({
          method: 'GET',
          url: '/assets/index-abc123.js',
          headers: encoding ? { 'accept-encoding': encoding } : {},
        });
      const br = await asset('gzip, deflate, br');
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.headers.vary).toMatch(/accept-encoding/i);
      expect(br.headers['content-type']).toMatch(/javascript/);
      expect(brotliDecompressSync(br.rawPayload).toString()).toBe(js);
      expect(br.rawPayload.length).toBeLessThan(js.length / 10);
      const gz = await asset('gzip');
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(gunzipSync(gz.rawPayload).toString()).toBe(js);
      const plain = await asset();
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(js);
      const index = await t.request({ method: 'GET', url: '/', headers: { 'accept-encoding': 'br' } });
      expect(index.headers['cache-control']).toBe('no-cache');
    } finally {
      await t.close();
    }
  });

  it('says how to build the web app when it is missing', async () => {
    const t = await createTestApp({ config: { webDist: path.join(os.tmpdir(), 'pbo-no-such-dist') } });
    try {
      const res = await t.request({ method: 'GET', url: '/' });
      expect(res.statusCode).toBe(503);
      expect(res.body).toContain('npm run build');
    } finally {
      await t.close();
    }
  });
});
