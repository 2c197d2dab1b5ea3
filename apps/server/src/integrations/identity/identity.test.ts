import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../config';
import { fixedClock } from '../../lib/clock';
import { createTestApp, testConfig, type TestApp } from '../../test/test-app';
import { createIdentityProvider } from '.';

describe('identity provider configuration', () => {
  it('refuses to start with the local provider in production', () => {
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(ConfigError);
    expect(() => loadConfig({ NODE_ENV: 'production' })).toThrow(
      /IDENTITY_PROVIDER: the local identity provider .* refused when NODE_ENV=production/,
    );
    expect(() =>
      loadConfig({
        NODE_ENV: 'production',
        IDENTITY_PROVIDER: 'google',
        GOOGLE_CLIENT_ID: 'abc.apps.googleusercontent.com',
      }),
    ).not.toThrow();
  });

  it('needs GOOGLE_CLIENT_ID in google mode, and uses it as the audience', () => {
    expect(() => loadConfig({ IDENTITY_PROVIDER: 'google' })).toThrow(/GOOGLE_CLIENT_ID/);
    const config = loadConfig({ IDENTITY_PROVIDER: 'google', GOOGLE_CLIENT_ID: 'abc.apps.googleusercontent.com' });
    expect(config.oidcClientId).toBe('abc.apps.googleusercontent.com');
  });

  it('has defaults for the rest', () => {
    const config = loadConfig({ PORT: '4000' });
    expect(config).toMatchObject({
      identityProvider: 'local',
      oidcClientId: 'pos-backoffice-local',
      publicUrl: 'http://localhost:4000',
      allowedEmailDomains: ['example.com', 'example.org'],
      sessionIdleMinutes: 120,
      sessionMaxHours: 12,
      signInRateLimitPerMinute: 10,
    });
    expect(loadConfig({ ALLOWED_EMAIL_DOMAINS: ' Corp.Example , shop.example ' }).allowedEmailDomains).toEqual([
      'corp.example',
      'shop.example',
    ]);
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://x' })).toThrow(/PUBLIC_URL/);
  });

  it('keeps the local key pair in DATA_DIR: made once, reused, private to the owner', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pbo-oidc-'));
    const config = { ...testConfig(), oidcLocalKeyFile: path.join(dir, 'oidc-local-key.json') };
    const clock = fixedClock('2026-11-22T12:00:00Z');
    const first = await createIdentityProvider(config, clock);
    const file = readFileSync(config.oidcLocalKeyFile, 'utf8');
    expect(statSync(config.oidcLocalKeyFile).mode & 0o077).toBe(0);
    const second = await createIdentityProvider(config, clock);
    expect(second.local!.jwks()).toEqual(first.local!.jwks());
    expect(readFileSync(config.oidcLocalKeyFile, 'utf8')).toBe(file);
    // A token of the first instance verifies in the second.
    const token = await first.local!.signIdToken({ email: 'a@example.com' });
    await expect(second.verify(token, clock.now())).resolves.toMatchObject({ email: 'a@example.com' });
  });
});

describe('google mode', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp({ config: { identityProvider: 'google', oidcClientId: 'abc.apps.googleusercontent.com' } });
  });
  afterAll(() => t.close());

  it('tells the web app to use Google with its client id', async () => {
    const res = await t.request({ method: 'GET', url: '/api/auth/config' });
    expect(res.json()).toEqual({ info: { provider: 'google', clientId: 'abc.apps.googleusercontent.com' } });
  });

  it('allows Google Identity Services in the CSP only in this mode', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    const csp = res.headers['content-security-policy'] as string;
    expect(csp).toContain("script-src 'self' https://accounts.google.com/gsi/client");
    expect(csp).toContain('frame-src https://accounts.google.com/gsi/');
    expect(csp).toContain("connect-src 'self' https://accounts.google.com/gsi/");
    expect(res.headers['cross-origin-opener-policy']).toBe('same-origin-allow-popups');
  });

  it('has no local issuer endpoints', async () => {
    expect(
      (await t.request({ method: 'POST', url: '/api/dev/idtoken', payload: { email: 'a@example.com' } })).statusCode,
    ).toBe(404);
    expect((await t.request({ method: 'GET', url: '/oidc/jwks.json' })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: '/.well-known/openid-configuration' })).statusCode).toBe(404);
  });

  it('refuses a token from another issuer without reaching Google (4xx, never 500)', async () => {
    const local = await createTestApp();
    try {
      const idtoken = await local.app.ctx.identity.local!.signIdToken({ email: 'a@example.com' });
      const res = await t.request({ method: 'POST', url: '/api/auth/authenticate', payload: { idtoken } });
      expect(res.statusCode).toBeGreaterThanOrEqual(400);
      expect(res.statusCode).not.toBe(500);
    } finally {
      await local.close();
    }
  });
});

describe('local mode CSP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await createTestApp();
  });
  afterAll(() => t.close());
  it('does not allow Google', async () => {
    const res = await t.request({ method: 'GET', url: '/api/health' });
    expect(res.headers['content-security-policy']).not.toContain('google');
  });
});
