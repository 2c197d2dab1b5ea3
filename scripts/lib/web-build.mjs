// Build the web app when its build is missing or older than any of its sources (used by npm start and e2e).
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const DIST_INDEX = path.join(ROOT, 'apps/web/dist/index.html');
const SOURCES = [
  'apps/web/src',
  'apps/web/public',
  'apps/web/index.html',
  'apps/web/vite.config.ts',
  'apps/web/package.json',
  'packages/domain/src',
  'package-lock.json',
];

/** The newest modification time (ms) of a file, or of anything in a folder (0 when it does not exist). */
export function newestMtime(p) {
  if (!existsSync(p)) return 0;
  const st = statSync(p);
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = st.mtimeMs;
  for (const entry of readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

export function webBuildIsStale() {
  if (!existsSync(DIST_INDEX)) return 'missing';
  const built = statSync(DIST_INDEX).mtimeMs;
  const newestSource = Math.max(...SOURCES.map((s) => newestMtime(path.join(ROOT, s))));
  return newestSource > built ? 'older than its sources' : false;
}

export function ensureWebBuild({ quiet = false } = {}) {
  const stale = webBuildIsStale();
  if (!stale) return false;
  if (!quiet) console.log(`Building the web app (its build is ${stale})…`);
  const res = spawnSync('npm', ['run', 'build', '-w', '@pos/web'], {
    cwd: ROOT,
    stdio: quiet ? ['ignore', 'ignore', 'inherit'] : 'inherit',
  });
  if (res.status !== 0) throw new Error('The web build failed (see above).');
  return true;
}
