import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
// @ts-expect-error — plain ESM helper shared with npm start
import { ensureServerBuild } from '../../scripts/lib/server-build.mjs';
// @ts-expect-error — plain ESM helper shared with npm start
import { ensureWebBuild } from '../../scripts/lib/web-build.mjs';
import { findChromium } from './chromium';
import { freePort, startServer, waitForHealth } from './server';

declare module 'vitest' {
  export interface ProvidedContext {
    e2e: { chromium: string | null; baseUrl: string; dataDir: string };
  }
}

/** Build the web app if needed, start the product on a free port with a temp data dir, hand the address to the tests. */
export default async function setup(project: TestProject) {
  const chromium = findChromium() ?? null;
  if (!chromium) {
    const message = 'No Chromium found (set CHROMIUM_PATH or apt-get install chromium): browser tests are SKIPPED.';
    if (process.env.E2E_REQUIRED === '1')
      throw new Error(`${message.replace(' are SKIPPED', ' cannot run')} E2E_REQUIRED=1 makes this a failure.`);
    console.warn(`\n${'!'.repeat(100)}\n!!! ${message}\n${'!'.repeat(100)}\n`);
    project.provide('e2e', { chromium: null, baseUrl: '', dataDir: '' });
    return;
  }

  (ensureWebBuild as (o: { quiet: boolean }) => boolean)({ quiet: true });
  await (ensureServerBuild as (o: { quiet: boolean }) => Promise<boolean>)({ quiet: true });
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pbo-e2e-'));
  const port = await freePort();
  const baseUrl = `http://127.0.0.1:${port}`;
  const server = startServer({
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    PUBLIC_URL: baseUrl,
    SIGNIN_RATE_LIMIT_PER_MINUTE: '1000',
  });
  try {
    const ms = await waitForHealth(baseUrl, 60_000, server.exited);
    console.log(`e2e: server healthy after ${ms} ms (fresh data dir, first start)`);
  } catch (err) {
    server.process.kill('SIGKILL');
    throw new Error(`${(err as Error).message}\n${server.output()}`, { cause: err });
  }
  project.provide('e2e', { chromium, baseUrl, dataDir });

  return async () => {
    server.process.kill('SIGTERM');
    await Promise.race([server.exited, new Promise((r) => setTimeout(r, 10_000))]);
    rmSync(dataDir, { recursive: true, force: true });
  };
}
