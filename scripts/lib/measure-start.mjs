// How long `npm start` takes to answer GET /api/health on a data directory that is already seeded (a later
// start, builds fresh) — the figure decision 041 holds us to (< 5 s on the 2-core machine). Used by
// scripts/measure-start.mjs and by npm run bench. Each start runs in its own process group, so the whole tree
// (npm → sh → node) is stopped with one signal. Builds what is stale first (the web build writes apps/web/dist).
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ensureServerBuild } from './server-build.mjs';
import { ensureWebBuild, ROOT } from './web-build.mjs';

function freePort() {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      srv.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

const COMMANDS = {
  /** What a person types. */
  npm: ['npm', ['start']],
  /** The same without npm's own start-up. */
  node: [process.execPath, [path.join(ROOT, 'scripts/start.mjs')]],
};

/** Spawn one start, return the ms from spawn to the first 200 of /api/health, then stop it gracefully. */
async function timeOneStart({ via, env, port, timeoutMs }) {
  const [command, args] = COMMANDS[via];
  let output = '';
  const started = performance.now();
  const child = spawn(command, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
  child.stdout.on('data', (d) => (output += String(d)));
  child.stderr.on('data', (d) => (output += String(d)));
  let exitCode;
  const exited = new Promise((resolve) => child.on('exit', (code) => resolve((exitCode = code))));
  let ms = null;
  try {
    while (performance.now() - started < timeoutMs && exitCode === undefined) {
      try {
        const res = await fetch(`http://127.0.0.1:${port}/api/health`);
        if (res.ok) {
          ms = performance.now() - started;
          break;
        }
      } catch {
        // not listening yet
      }
      await new Promise((r) => setTimeout(r, 20));
    }
  } finally {
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      // already gone
    }
    const code = await Promise.race([exited, new Promise((r) => setTimeout(() => r('timeout'), 15_000))]);
    if (code === 'timeout') process.kill(-child.pid, 'SIGKILL');
  }
  if (ms === null) throw new Error(`the server did not answer /api/health within ${timeoutMs} ms:\n${output}`);
  return { ms: Math.round(ms), output };
}

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

/**
 * Start once on a fresh data directory (seeds the demo data, builds what is stale), then `runs` more times on
 * the same directory; returns every later start's time and their median. With `dataDir` (already seeded, not in
 * use) the first start is skipped and the directory is left in place.
 */
export async function measureLaterStarts({ runs = 5, via = 'npm', dataDir: given, log = () => undefined } = {}) {
  const dataDir = given ?? mkdtempSync(path.join(os.tmpdir(), 'pbo-start-'));
  // Timed starts find both builds fresh (the figure is for starts after the first build).
  ensureWebBuild({ quiet: true });
  await ensureServerBuild({ quiet: true });
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    LOG_LEVEL: 'warn',
    NODE_ENV: 'development',
  };
  try {
    let firstStartMs = null;
    if (!given) {
      firstStartMs = (await timeOneStart({ via, env, port, timeoutMs: 600_000 })).ms;
      log(`first start (seed) → healthy: ${firstStartMs} ms`);
    }
    const laterMs = [];
    for (let i = 0; i < runs; i++) {
      const { ms } = await timeOneStart({ via, env, port, timeoutMs: 120_000 });
      laterMs.push(ms);
      log(`later start ${i + 1}/${runs} → healthy: ${ms} ms (load ${os.loadavg()[0].toFixed(2)})`);
    }
    return {
      via,
      firstStartMs,
      laterStartsMs: laterMs,
      medianLaterStartMs: median(laterMs),
      loadAvg1m: +os.loadavg()[0].toFixed(2),
    };
  } finally {
    if (!given) rmSync(dataDir, { recursive: true, force: true });
  }
}
