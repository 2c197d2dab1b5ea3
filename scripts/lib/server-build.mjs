// The server bundle (decision 041): apps/server/src/main.ts and the @pos/domain source it imports, bundled by
// esbuild into apps/server/dist/ so `npm start` runs plain JavaScript instead of ~300 TS modules through tsx.
// Packages in node_modules stay external (Node loads them as usual). Built by npm start / npm run build / the
// e2e setup when the bundle is missing or older than its sources — the same rule as the web build.
import { existsSync, mkdirSync, renameSync, rmSync, statSync, utimesSync } from 'node:fs';
import path from 'node:path';
import { newestMtime, ROOT } from './web-build.mjs';

export const SERVER_DIST = path.join(ROOT, 'apps/server/dist');
export const SERVER_BUNDLE = path.join(SERVER_DIST, 'main.mjs');
const SOURCES = [
  'apps/server/src',
  'apps/server/package.json',
  'packages/domain/src',
  'packages/domain/package.json',
  'package-lock.json',
  'scripts/lib/server-build.mjs',
];

export function serverBuildIsStale() {
  if (!existsSync(SERVER_BUNDLE)) return 'missing';
  const built = statSync(SERVER_BUNDLE).mtimeMs;
  const newestSource = Math.max(...SOURCES.map((s) => newestMtime(path.join(ROOT, s))));
  return newestSource > built ? 'older than its sources' : false;
}

/** Workspace packages (TS source) are bundled; every other bare import stays a package Node loads itself. */
const externalPackages = {
  name: 'external-packages',
  setup(build) {
    build.onResolve({ filter: /^[^./]/ }, (args) => {
      if (args.path.startsWith('@pos/')) return undefined;
      return { path: args.path, external: true };
    });
  },
};

export async function buildServer() {
  const started = Date.now();
  const { build, stop } = await import('esbuild');
  // Built beside dist/ and swapped in, so a server starting meanwhile never reads a half-written bundle.
  // Every file of the bundle sits one folder below apps/server (like src/): config.ts finds the repository from
  // there (so no chunkNames with a sub-folder).
  const tmp = path.join(ROOT, `apps/server/dist.tmp-${process.pid}`);
  rmSync(tmp, { recursive: true, force: true });
  mkdirSync(tmp, { recursive: true });
  try {
    await build({
      entryPoints: { main: path.join(ROOT, 'apps/server/src/main.ts') },
      outdir: tmp,
      outExtension: { '.js': '.mjs' },
      bundle: true,
      splitting: true, // the demo seed stays a chunk of its own, loaded only on first start
      format: 'esm',
      platform: 'node',
      target: 'node20',
      sourcemap: 'linked',
      plugins: [externalPackages],
      logLevel: 'warning',
      legalComments: 'none',
    });
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true });
    throw new Error(`The server build failed: ${err.message}`, { cause: err });
  } finally {
    await stop(); // esbuild's service process would otherwise live as long as the server
  }
  // Sources changed while building are newer than the bundle, so the next start builds again.
  const at = new Date(started);
  utimesSync(path.join(tmp, 'main.mjs'), at, at);
  const old = `${SERVER_DIST}.old-${process.pid}`;
  if (existsSync(SERVER_DIST)) renameSync(SERVER_DIST, old);
  try {
    renameSync(tmp, SERVER_DIST);
  } catch (err) {
    // Another process swapped its build in between: that one is as fresh as ours.
    if (!existsSync(SERVER_BUNDLE)) throw err;
    rmSync(tmp, { recursive: true, force: true });
  }
  rmSync(old, { recursive: true, force: true });
}

/** Build the server bundle if it is missing or stale; true when it built. */
export async function ensureServerBuild({ quiet = false } = {}) {
  const stale = serverBuildIsStale();
  if (!stale) return false;
  if (!quiet) console.log(`Building the server (its bundle is ${stale})…`);
  await buildServer();
  return true;
}
