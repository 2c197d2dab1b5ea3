// Import boundaries (ARCHITECTURE.md): domain ← server, domain ← web; in web, lib ← api ← components ← features ← app
// (each layer imports only the layers before it), and no feature imports another feature. The web never imports server
// code. Exits 1 listing every violation.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/web-build.mjs';

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;

function walk(dir, out = []) {
  let entries;
  try {
    entries = readdirSync(dir);
  } catch {
    return out;
  }
  for (const e of entries) {
    if (e === 'node_modules' || e === 'dist') continue;
    const p = path.join(dir, e);
    if (statSync(p).isDirectory()) walk(p, out);
    else if (SOURCE.test(e)) out.push(p);
  }
  return out;
}

const rel = (p) => path.relative(ROOT, p).split(path.sep).join('/');

/**
 * The web app's layers, lowest first; a layer imports only itself and the layers before it. lib/: the API client,
 * session, formatting; api/: operations (and their query keys) that more than one feature calls; components/: shared
 * widgets; features/: screens; app/: the shell. test/ and main.tsx sit outside.
 */
const WEB_LAYERS = ['lib', 'api', 'components', 'features', 'app'];

/** Returns a reason string when `file` may not import `spec` (resolved to `target` when relative). */
export function violation(file, spec) {
  const from = rel(file);
  const target = spec.startsWith('.') ? rel(path.resolve(path.dirname(file), spec)) : undefined;

  if (from.startsWith('packages/domain/')) {
    if (target) return target.startsWith('packages/domain/') ? null : 'domain imports outside the domain package';
    if (spec === 'zod' || spec.startsWith('zod/') || spec === 'vitest') return null;
    return `domain may depend on nothing but zod (imports "${spec}")`;
  }
  if (spec === '@pos/server' || spec.startsWith('@pos/server/')) {
    if (!from.startsWith('apps/server/')) return 'only the server imports server code';
  }
  if (spec === '@pos/web' || spec.startsWith('@pos/web/')) return 'nothing imports the web app as a package';
  if (from.startsWith('apps/web/') && target?.startsWith('apps/server/')) return 'the web never imports server code';
  if (from.startsWith('apps/server/') && target?.startsWith('apps/web/')) return 'the server never imports web code';

  const web = 'apps/web/src/';
  if (from.startsWith(web) && target?.startsWith(web)) {
    const layer = (p) => p.slice(web.length).split('/')[0];
    const fromLayer = layer(from);
    const toLayer = layer(target);
    const fromRank = WEB_LAYERS.indexOf(fromLayer);
    const toRank = WEB_LAYERS.indexOf(toLayer);
    if (fromRank >= 0 && toRank > fromRank) {
      return fromLayer === 'features'
        ? `a feature may not import ${toLayer}/`
        : `${fromLayer}/ may not import ${toLayer}/`;
    }
    if (fromLayer === 'features') {
      const featureOf = (p) => p.slice(web.length).split('/')[1];
      if (toLayer === 'features' && featureOf(from) !== featureOf(target)) {
        return `feature "${featureOf(from)}" may not import feature "${featureOf(target)}"`;
      }
    }
  }
  return null;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const files = ['packages/domain/src', 'apps/server/src', 'apps/web/src', 'e2e', 'bench'].flatMap((d) =>
    walk(path.join(ROOT, d)),
  );
  const problems = [];
  for (const file of files) {
    const text = readFileSync(file, 'utf8');
    for (const m of text.matchAll(IMPORT)) {
      const spec = m[1] ?? m[2] ?? m[3];
      const reason = spec && violation(file, spec);
      if (reason) problems.push(`${rel(file)}: "${spec}" — ${reason}`);
    }
  }
  // Issue 12: the web names order statuses (ORDER_STATUS.PENDING_CONTRACT_SIGN), never writes their codes.
  const STATUS_LITERAL = /'(1|2|3|10|11|15|101|111|121|125|126|140|141|142|150)'/;
  for (const file of files.filter((f) => rel(f).startsWith('apps/web/src/'))) {
    readFileSync(file, 'utf8')
      .split('\n')
      .forEach((line, i) => {
        if (STATUS_LITERAL.test(line))
          problems.push(
            `${rel(file)}:${i + 1}: an order status code as a literal — use ORDER_STATUS.… from the domain`,
          );
      });
  }
  if (problems.length) {
    console.error(`Import boundary violations (${problems.length}):\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`Import boundaries hold (${files.length} files).`);
}
