import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
/** What `npm start` runs once the builds are fresh: the server bundle (decision 041; scripts/lib/server-build.mjs). */
export const SERVER_BUNDLE = path.join(ROOT, 'apps/server/dist/main.mjs');

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.unref();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const address = srv.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      srv.close(() => resolve(port));
    });
  });
}

export interface RunningServer {
  process: ChildProcess;
  baseUrl: string;
  output: () => string;
  stop(): Promise<void>;
}

/**
 * Start the product the way `npm start` does, without the build step (the e2e global setup and the bench build
 * the web app and the server bundle first), on a port and data dir of our own.
 */
export function startServer(env: Record<string, string>): {
  process: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  let output = '';
  const child = spawn(process.execPath, ['--enable-source-maps', SERVER_BUNDLE], {
    cwd: ROOT,
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (d) => (output += String(d)));
  child.stderr?.on('data', (d) => (output += String(d)));
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)));
  return { process: child, output: () => output, exited };
}

export async function waitForHealth(
  baseUrl: string,
  timeoutMs: number,
  exited?: Promise<number | null>,
): Promise<number> {
  const started = Date.now();
  let gone = false;
  void exited?.then(() => (gone = true));
  while (Date.now() - started < timeoutMs) {
    if (gone) throw new Error('the server exited before it was healthy');
    try {
      const res = await fetch(`${baseUrl}/api/health`);
      if (res.ok) return Date.now() - started;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the server at ${baseUrl} was not healthy within ${timeoutMs} ms`);
}
