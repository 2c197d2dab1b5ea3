// Import boundaries (ARCHITECTURE.md, decisions 007, 103 and 105): domain ← server, domain ← web; in web, lib ← api ←
// components ← features ← app (each layer imports only the layers before it), and no feature imports another feature. The web never imports server code. In the server:
// lib/, db/, http/, integrations/ and context.ts import no module; a module (modules/<x>/) is entered only through its
// index.ts; and no import cycle, neither between files nor between modules. The money path (decision 144): no module
// but modules/payments reaches the payment gateway — neither by importing integrations/gateway nor through the
// context's `gateway` — only the composition root (app.ts, context.ts, config.ts), integrations/ itself and tests may.
// Exits 1 listing every violation.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { ROOT } from './lib/web-build.mjs';

const SOURCE = /\.(ts|tsx|mts|js|mjs)$/;
const IMPORT =
  /(?:import|export)\s[^'"]*?from\s*['"]([^'"]+)['"]|import\(\s*['"]([^'"]+)['"]\s*\)|^\s*import\s+['"]([^'"]+)['"]/gm;
/** How a relative specifier may name a file: as written, with an extension, or as a folder's index. */
const CANDIDATES = ['', '.ts', '.tsx', '.mts', '.mjs', '.js', '/index.ts', '/index.tsx'];

const SERVER = 'apps/server/src/';
/** Server folders (and files) below the modules: they import no module. */
const BELOW_MODULES = ['lib/', 'db/', 'http/', 'access/', 'integrations/', 'context.ts'];

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

/** Every import specifier of a file's text (static, re-export, side-effect and dynamic imports; `import type` too). */
export function specifiersOf(text) {
  return [...text.matchAll(IMPORT)].map((m) => m[1] ?? m[2] ?? m[3]).filter(Boolean);
}

/** The repository path a relative specifier names: a known file when one matches, else the plain joined path. */
export function resolveSpecifier(from, spec, known) {
  if (!spec.startsWith('.')) return undefined;
  const base = path.posix.normalize(path.posix.join(path.posix.dirname(from), spec));
  for (const c of CANDIDATES) if (known.has(base + c)) return base + c;
  return base;
}

/**
 * The web app's layers, lowest first; a layer imports only itself and the layers before it. lib/: the API client,
 * session, formatting; api/: operations (and their query keys) that more than one feature calls; components/: shared
 * widgets; features/: screens; app/: the shell. test/ and main.tsx sit outside.
 */
const WEB_LAYERS = ['lib', 'api', 'components', 'features', 'app'];

/** An order status code written as a literal (issue 12: the web names them, ORDER_STATUS.PENDING_CONTRACT_SIGN). */
const STATUS_LITERAL = /'(1|2|3|10|11|15|101|111|121|125|126|140|141|142|150)'/;

/** Lines of a web file that write an order status code as a literal: a code in quotes on a line about a status. */
export function statusLiterals(file, text) {
  if (!file.startsWith('apps/web/src/')) return [];
  const found = [];
  text.split('\n').forEach((line, i) => {
    if (STATUS_LITERAL.test(line) && /status/i.test(line))
      found.push(`${file}:${i + 1}: an order status code as a literal — use ORDER_STATUS.… from the domain`);
  });
  return found;
}

/** Who may reach the payment gateway (decision 144): payments, integrations/, the composition root, tests. */
const GATEWAY_ALLOWED = ['modules/payments/', 'integrations/', 'app.ts', 'context.ts', 'config.ts', 'test/'];
const GATEWAY_PATH = `${SERVER}integrations/gateway`;
/** The context's gateway, however it is reached: ctx.app.gateway, app.ctx.gateway, app.gateway, ctx.gateway, { gateway } = …ctx. */
const GATEWAY_USE = /\b(?:ctx|app|context)\s*\.\s*gateway\b|\{[^}]*\bgateway\b[^}]*\}\s*=\s*[\w.]*\b(?:ctx|app)\b/;

/** May this server file reach the payment gateway? */
export function mayReachGateway(file) {
  if (!file.startsWith(SERVER) || isTestFile(file)) return true;
  const rest = file.slice(SERVER.length);
  return GATEWAY_ALLOWED.some((a) => (a.endsWith('/') ? rest.startsWith(a) : rest === a));
}

/** Lines of a server file outside the money path that use the context's payment gateway (decision 144). */
export function gatewayUses(file, text) {
  if (mayReachGateway(file)) return [];
  const found = [];
  text.split('\n').forEach((line, i) => {
    if (/^\s*(\/\/|\*|\/\*)/.test(line)) return;
    if (GATEWAY_USE.test(line))
      found.push(
        `${file}:${i + 1}: the payment gateway is reached through modules/payments only (its index: refundPayment, voidCharge, authorizeCard, redeemCardToken, gatewayInfo, …)`,
      );
  });
  return found;
}

/** `x` for a file of apps/server/src/modules/x/, else null. */
export function moduleOf(p) {
  return /^apps\/server\/src\/modules\/([^/]+)\//.exec(p)?.[1] ?? null;
}

/**
 * Returns a reason string when `from` may not import `spec` (which names `target` when relative), else null.
 * Paths are relative to the repository, with forward slashes.
 */
export function violation(from, spec, target) {
  if (from.startsWith('packages/domain/')) {
    if (target) return target.startsWith('packages/domain/') ? null : 'domain imports outside the domain package';
    if (spec === 'zod' || spec.startsWith('zod/') || spec === 'vitest') return null;
    // Test tools stay in the tests: property tests over the domain's rules (decision 112).
    if (spec === 'fast-check' && /\.test\.tsx?$/.test(from)) return null;
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

  if (target && (target === GATEWAY_PATH || target.startsWith(`${GATEWAY_PATH}/`) || target === `${GATEWAY_PATH}.ts`)) {
    if (!mayReachGateway(from))
      return 'no module but payments imports integrations/gateway (the money path, decision 144)';
  }
  if (from.startsWith(SERVER) && target?.startsWith(`${SERVER}modules/`)) {
    const fromModule = moduleOf(from);
    const toModule = moduleOf(target);
    const index = `${SERVER}modules/${toModule}/index.ts`;
    const below = BELOW_MODULES.find((b) => from.slice(SERVER.length).startsWith(b));
    if (below) return `${below} sits below the modules and imports none (imports module "${toModule}")`;
    if (fromModule === toModule) {
      return target === index ? `a module does not import its own index.ts (import the file itself)` : null;
    }
    if (target !== index) {
      return `module "${toModule}" is entered through modules/${toModule}/index.ts only (its public surface)`;
    }
  }
  return null;
}

/** The strongly connected components (more than one node, or a node importing itself) of a directed graph. */
export function cyclicComponents(graph) {
  let next = 0;
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const found = [];
  const visit = (v) => {
    index.set(v, next);
    low.set(v, next++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v), low.get(w)));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v), index.get(w)));
    }
    if (low.get(v) !== index.get(v)) return;
    const component = [];
    let w;
    do {
      w = stack.pop();
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1 || graph.get(v)?.has(v)) found.push(component.sort());
  };
  for (const v of [...graph.keys()].sort()) if (!index.has(v)) visit(v);
  return found;
}

/** One cycle through a component, as a path from its first node back to it (for the message). */
function cycleThrough(graph, component) {
  const inside = new Set(component);
  const start = component[0];
  const seen = new Set();
  const walkFrom = (v, trail) => {
    for (const w of [...(graph.get(v) ?? [])].sort()) {
      if (w === start) return [...trail, w];
      if (!inside.has(w) || seen.has(w)) continue;
      seen.add(w);
      const found = walkFrom(w, [...trail, w]);
      if (found) return found;
    }
    return null;
  };
  return walkFrom(start, [start]) ?? [...component, start];
}

const isTestFile = (p) => /\.test\.[cm]?[jt]sx?$/.test(p) || p.startsWith(`${SERVER}test/`);

/**
 * The server's product code: every file but the tests (*.test.ts, test/) and what only tests import (a module's
 * test-support.ts). Tests import the whole app on purpose, so they stay out of the cycle check.
 */
export function productFiles(edges) {
  const importers = new Map();
  for (const [from, targets] of edges)
    for (const t of targets) (importers.get(t) ?? importers.set(t, []).get(t)).push(from);
  const product = new Set([...edges.keys()].filter((p) => !isTestFile(p)));
  for (let changed = true; changed;) {
    changed = false;
    for (const p of product) {
      const by = importers.get(p) ?? [];
      if (by.length > 0 && by.every((i) => !product.has(i))) changed = product.delete(p);
    }
  }
  return product;
}

/**
 * Every problem of a set of files (repository path → text): the boundary rules of `violation`, then import cycles in
 * the server's product code between files and between modules (a module counts as one node, other files as
 * themselves). Type-only imports count too (decision 103).
 */
export function checkImports(files) {
  const known = new Set(files.keys());
  const problems = [];
  const edges = new Map();
  const edge = (graph, a, b) => (graph.get(a) ?? graph.set(a, new Set()).get(a)).add(b);

  for (const [from, text] of [...files].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (from.startsWith(SERVER)) edges.set(from, new Set());
    for (const spec of specifiersOf(text)) {
      const target = resolveSpecifier(from, spec, known);
      const reason = violation(from, spec, target);
      if (reason) problems.push(`${from}: "${spec}" — ${reason}`);
      if (from.startsWith(SERVER) && target?.startsWith(SERVER) && known.has(target)) edge(edges, from, target);
    }
  }

  const product = productFiles(edges);
  const fileGraph = new Map();
  const unitGraph = new Map();
  const unitOf = (p) => (moduleOf(p) ? `${SERVER}modules/${moduleOf(p)}/` : p);
  for (const from of product) {
    for (const target of edges.get(from) ?? []) {
      if (!product.has(target)) continue;
      edge(fileGraph, from, target);
      if (unitOf(from) !== unitOf(target)) edge(unitGraph, unitOf(from), unitOf(target));
    }
  }

  const short = (p) => p.slice(SERVER.length);
  const fileCycles = cyclicComponents(fileGraph);
  for (const component of fileCycles) {
    problems.push(`import cycle in ${SERVER}: ${cycleThrough(fileGraph, component).map(short).join(' → ')}`);
  }
  const reported = new Set(fileCycles.map((c) => [...new Set(c.map(unitOf))].sort().join(' ')));
  for (const component of cyclicComponents(unitGraph)) {
    if (reported.has(component.join(' '))) continue;
    problems.push(`module cycle in ${SERVER}: ${cycleThrough(unitGraph, component).map(short).join(' → ')}`);
  }
  return problems;
}

const isMain = process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname);
if (isMain) {
  const rel = (p) => path.relative(ROOT, p).split(path.sep).join('/');
  const paths = ['packages/domain/src', 'apps/server/src', 'apps/web/src', 'e2e', 'bench'].flatMap((d) =>
    walk(path.join(ROOT, d)),
  );
  const files = new Map(paths.map((p) => [rel(p), readFileSync(p, 'utf8')]));
  const problems = [
    ...checkImports(files),
    ...[...files].flatMap(([file, text]) => [...statusLiterals(file, text), ...gatewayUses(file, text)]),
  ];
  if (problems.length) {
    console.error(`Import boundary violations (${problems.length}):\n${problems.map((p) => `  ${p}`).join('\n')}`);
    process.exit(1);
  }
  console.log(`Import boundaries hold (${files.size} files, no import cycle in ${SERVER}).`);
}
