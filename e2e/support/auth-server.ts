import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { freePort, ROOT, startServer, waitForHealth } from './server';

/**
 * A product server of the sign-in journeys' own: a fresh data dir (demo seed), a copy of the built web app
 * (so a journey can "deploy" a new service worker without touching apps/web/dist), and a sign-in rate
 * limit high enough for fifteen sign-ins in a minute (the limit itself is shown by the server tests).
 */
export interface AuthServer {
  readonly baseUrl: string;
  /** The web app this server serves (a copy of apps/web/dist). */
  readonly webDist: string;
  stop(): Promise<void>;
}

export async function startAuthServer(): Promise<AuthServer> {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pbo-e2e-auth-'));
  const webDist = mkdtempSync(path.join(os.tmpdir(), 'pbo-e2e-web-'));
  cpSync(path.join(ROOT, 'apps/web/dist'), webDist, { recursive: true });
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = startServer({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    WEB_DIST: webDist,
    SIGNIN_RATE_LIMIT_PER_MINUTE: '1000',
  });
  const removeDirs = () => {
    rmSync(dataDir, { recursive: true, force: true });
    rmSync(webDist, { recursive: true, force: true });
  };
  try {
    await waitForHealth(baseUrl, 120_000, server.exited);
  } catch (err) {
    server.process.kill('SIGKILL');
    await Promise.race([server.exited, new Promise((r) => setTimeout(r, 10_000))]);
    removeDirs();
    throw new Error(`${(err as Error).message}\n${server.output()}`, { cause: err });
  }
  return {
    baseUrl,
    webDist,
    async stop() {
      server.process.kill('SIGTERM');
      await Promise.race([server.exited, new Promise((r) => setTimeout(r, 10_000))]);
      removeDirs();
    },
  };
}

const ROUTE_LOG = '__e2e_routes';

/**
 * Record every address the tab's pages go to (history push/replace, hash changes, page loads) in the tab's
 * session storage, so a journey can read where the app went, even through routes it left at once.
 * Test instrumentation only: it wraps `history` in the browser, the app is unchanged.
 */
export async function recordRoutes(context: BrowserContext): Promise<void> {
  await context.addInitScript((key: string) => {
    const log = () => {
      const list = JSON.parse(sessionStorage.getItem(key) ?? '[]') as string[];
      list.push(location.hash);
      sessionStorage.setItem(key, JSON.stringify(list));
    };
    for (const method of ['pushState', 'replaceState'] as const) {
      const original = history[method];
      history[method] = function (this: History, ...args: Parameters<History['pushState']>) {
        original.apply(this, args);
        log();
      };
    }
    addEventListener('hashchange', log);
    log();
  }, ROUTE_LOG);
}

/** The hashes recorded so far in the page's tab. */
export async function routesOf(page: Page): Promise<string[]> {
  return page.evaluate((key) => JSON.parse(sessionStorage.getItem(key) ?? '[]') as string[], ROUTE_LOG);
}

/** Forget the hashes recorded so far (e.g. before the action whose route matters). */
export async function clearRoutes(page: Page): Promise<void> {
  await page.evaluate((key) => sessionStorage.removeItem(key), ROUTE_LOG);
}

/**
 * Where the app sent the user after sign-in: the first route other than the sign-in page and the root
 * among `hashes` ('#/login' when there is none). Screens not built yet end at #/login afterwards
 * (docs/decisions/020), so the landing is read from the way there.
 */
export function landingOf(hashes: readonly string[]): string {
  return hashes.find((h) => h !== '' && h !== '#/' && !h.startsWith('#/login')) ?? '#/login';
}

/** A JSON API call from the browser context (its cookies, and the XSRF header on non-GET). */
export async function callApi<T>(
  context: BrowserContext,
  baseUrl: string,
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
): Promise<T> {
  const cookies = await context.cookies(baseUrl);
  const xsrf = cookies.find((c) => c.name === 'XSRF-TOKEN')?.value;
  const response = await context.request.fetch(`${baseUrl}${path}`, {
    method,
    headers: xsrf && method !== 'GET' ? { 'X-XSRF-TOKEN': decodeURIComponent(xsrf) } : {},
    data: body,
  });
  const text = await response.text();
  if (!response.ok()) throw new Error(`${method} ${path} → ${response.status()}: ${text}`);
  return (JSON.parse(text) as { info: T }).info;
}
