/**
 * The web bundle's sizes, read from the build's manifest (apps/web/dist/.vite/manifest.json, vite.config.ts
 * `build.manifest`): what the first route (#/login) loads — the entry, its static imports and the login page's
 * chunk with its static imports — and each route's own chunk (issue 13: first route ≤ 150 kB gzip of JS, every
 * other route lazy, each route chunk ≤ 50 kB gzip).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';

export const FIRST_ROUTE_TARGET_KB = 150;
export const ROUTE_CHUNK_TARGET_KB = 50;
/** The module of the first route's page (apps/web/src/app/router.tsx `pages.login`). */
const LOGIN_PAGE = 'src/features/auth/pages/login-page.tsx';

interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

const kb = (bytes: number) => +(bytes / 1024).toFixed(1);

export interface BundleReport {
  note?: string;
  totalGzipKb?: number;
  firstRoute?: { route: string; jsGzipKb: number; files: Array<{ file: string; gzipKb: number }>; targetKb: number };
  largestRouteChunk?: { module: string; file: string; gzipKb: number; targetKb: number };
  routeChunks?: Array<{ module: string; file: string; gzipKb: number }>;
  meetsTarget?: boolean;
}

export function bundleReport(webDist: string): BundleReport {
  const manifestFile = path.join(webDist, '.vite/manifest.json');
  if (!existsSync(manifestFile)) return { note: `${manifestFile} is missing: run npm run build first` };
  const manifest = JSON.parse(readFileSync(manifestFile, 'utf8')) as Record<string, ManifestChunk>;
  const gzipCache = new Map<string, number>();
  const gzip = (file: string) => {
    let n = gzipCache.get(file);
    if (n === undefined) {
      n = gzipSync(readFileSync(path.join(webDist, file))).length;
      gzipCache.set(file, n);
    }
    return n;
  };
  /** A chunk and everything it imports statically (what the browser fetches before it runs). */
  const closure = (key: string, into = new Set<string>()) => {
    if (into.has(key)) return into;
    into.add(key);
    for (const k of manifest[key]?.imports ?? []) closure(k, into);
    return into;
  };
  const entryKey = Object.keys(manifest).find((k) => manifest[k]?.isEntry);
  if (!entryKey) return { note: 'the manifest names no entry' };
  const first = closure(entryKey);
  if (manifest[LOGIN_PAGE]) closure(LOGIN_PAGE, first);
  const firstFiles = [...first]
    .map((k) => manifest[k]!.file)
    .filter((f) => f.endsWith('.js'))
    .map((file) => ({ file, gzipKb: kb(gzip(file)) }))
    .sort((a, b) => b.gzipKb - a.gzipKb);
  const firstKb = kb(
    [...first].reduce((s, k) => s + (manifest[k]!.file.endsWith('.js') ? gzip(manifest[k]!.file) : 0), 0),
  );
  const routeChunks = Object.entries(manifest)
    .filter(([, c]) => c.isDynamicEntry && c.src?.includes('/pages/'))
    .map(([key, c]) => ({ module: key, file: c.file, gzipKb: kb(gzip(c.file)) }))
    .sort((a, b) => b.gzipKb - a.gzipKb);
  const largest = routeChunks[0];
  const assets = path.join(webDist, 'assets');
  const totalGzip = readdirSync(assets)
    .filter((f) => /\.(js|css)$/.test(f))
    .reduce((s, f) => s + gzip(path.join('assets', f)), 0);
  return {
    totalGzipKb: kb(totalGzip),
    firstRoute: { route: '#/login', jsGzipKb: firstKb, files: firstFiles, targetKb: FIRST_ROUTE_TARGET_KB },
    largestRouteChunk: largest && { ...largest, targetKb: ROUTE_CHUNK_TARGET_KB },
    routeChunks,
    meetsTarget: firstKb <= FIRST_ROUTE_TARGET_KB && (largest?.gzipKb ?? 0) <= ROUTE_CHUNK_TARGET_KB,
  };
}
