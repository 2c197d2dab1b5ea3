import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import type { AxeResults, RunOptions } from 'axe-core';
import type { Browser, BrowserContext, Page } from 'playwright-core';

/*
 * Accessibility in every browser journey (issue 19 part 7, decision 136). `launchBrowser()` instruments its browser:
 * every page of every context is audited with axe-core (WCAG 2 A/AA + best practices) once it has settled after each
 * navigation or hash change, and once more before its context closes and at the end of each test
 * (`a11y-setup.ts`). A serious or critical violation, a page without exactly one visible h1, or an audit in which
 * axe's form-label rule did not run fails the test that was running, with the rule, its help, the target selectors
 * and the URL. A new journey is covered without doing anything.
 */

const AXE_SOURCE = readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
const TAGS = ['wcag2a', 'wcag2aa', 'best-practice'];
/** Axe rules that must have been evaluated on every page (labelled form controls). */
const REQUIRED_RULES = ['label', 'select-name', 'button-name'];

/**
 * Rule exceptions for one selector each, for third-party widgets we cannot change. Never a rule for every
 * element: each entry says which element and why.
 */
export const A11Y_EXCEPTIONS: readonly { rule: string; selector: string; why: string }[] = [];

export interface A11yProblem {
  rule: string;
  impact: string;
  help: string;
  helpUrl: string;
  targets: string[];
  url: string;
  /** What axe says about the first target (e.g. the contrast ratio and colours). */
  detail?: string;
}

const problems = new Map<string, A11yProblem>();
const inFlight = new Set<Promise<unknown>>();
const watched = new WeakSet<Page>();
let enabled = true;

/** Turn the automatic audits off and on (a journey may, around a deliberately broken page; none does today). */
export function setA11yAudits(on: boolean): void {
  enabled = on;
}

function record(found: A11yProblem[]): void {
  for (const p of found) {
    const key = `${p.rule}|${p.targets.join(',')}|${p.url.split('?')[0]}`;
    if (!problems.has(key)) problems.set(key, p);
  }
}

/** The problems found since the last call, emptied. */
export function takeA11yProblems(): A11yProblem[] {
  const all = [...problems.values()];
  problems.clear();
  return all;
}

export function formatA11yProblems(found: A11yProblem[]): string {
  return [
    `${found.length} accessibility problem(s) (serious/critical axe violations, h1 count, unlabelled controls):`,
    ...found.map(
      (p) =>
        `- [${p.impact}] ${p.rule}: ${p.help}\n    at ${p.url}\n    targets: ${p.targets.slice(0, 8).join(' | ')}${
          p.targets.length > 8 ? ` (+${p.targets.length - 8} more)` : ''
        }${p.detail ? `\n    ${p.detail}` : ''}\n    ${p.helpUrl}`,
    ),
  ].join('\n');
}

/** Requests under way per page (a lazy page's code, its API calls); streams do not count. */
const inflight = new WeakMap<Page, Set<unknown>>();

function trackRequests(page: Page): void {
  const open = new Set<unknown>();
  inflight.set(page, open);
  page.on('request', (r) => {
    if (!['eventsource', 'websocket'].includes(r.resourceType())) open.add(r);
  });
  page.on('requestfinished', (r) => open.delete(r));
  page.on('requestfailed', (r) => open.delete(r));
}

/** Settled: no request of the page under way and its DOM quiet (at most `maxMs` in all). */
async function settle(page: Page, maxMs = 6000): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < maxMs) {
    await domQuiet(page);
    if ((inflight.get(page)?.size ?? 0) === 0) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** Wait until the page's DOM has been quiet for `quietMs` and nothing says it is busy (at most `maxMs`). */
async function domQuiet(page: Page, quietMs = 300, maxMs = 4000): Promise<void> {
  await page.evaluate(
    ([quiet, max]) =>
      new Promise<void>((resolve) => {
        const started = performance.now();
        let last = performance.now();
        const observer = new MutationObserver(() => (last = performance.now()));
        observer.observe(document, { subtree: true, childList: true, attributes: true, characterData: true });
        const busy = () =>
          document.readyState !== 'complete' ||
          document.querySelector('[aria-busy="true"], .mantine-Loader-root, [data-loading="true"]') !== null;
        const tick = () => {
          const now = performance.now();
          if (now - started > max || (now - last >= quiet && !busy())) {
            observer.disconnect();
            resolve();
          } else setTimeout(tick, 50);
        };
        setTimeout(tick, 50);
      }),
    [quietMs, maxMs] as const,
  );
}

interface PageFindings {
  url: string;
  skipped: boolean;
  ran: string[];
  violations: { id: string; impact: string; help: string; helpUrl: string; targets: string[]; detail: string }[];
  h1s: string[];
}

/** Audit the page as it is now: axe (serious and critical only), exactly one visible h1, the label rules ran. */
export async function auditPage(page: Page): Promise<A11yProblem[]> {
  const injected = await page.evaluate(() => 'axe' in window && document.contentType === 'text/html');
  if (!injected) {
    const html = await page.evaluate(() => document.contentType === 'text/html' && location.protocol !== 'about:');
    if (!html) return [];
    // Through the DevTools protocol, not a <script> tag: the product's CSP forbids inline scripts.
    await page.evaluate(AXE_SOURCE);
  }
  const found: PageFindings = await page.evaluate(
    async ({ tags, exceptions }) => {
      const axe = (window as unknown as { axe: { run(context: Document, options: RunOptions): Promise<AxeResults> } })
        .axe;
      const url = location.href;
      if (!document.body) return { url, skipped: true, ran: [], violations: [], h1s: [] };
      const results = await axe.run(document, {
        runOnly: { type: 'tag', values: tags },
        resultTypes: ['violations'],
      });
      const excepted = (rule: string, target: string) => {
        const el = document.querySelector(target);
        return exceptions.some((e) => e.rule === rule && el !== null && el.closest(e.selector) !== null);
      };
      const violations = results.violations
        .filter((v) => v.impact === 'serious' || v.impact === 'critical')
        .map((v) => ({
          id: v.id,
          impact: v.impact ?? '',
          help: v.help,
          helpUrl: v.helpUrl,
          targets: v.nodes
            .map((n) => n.target.map(String).join(' >> '))
            .filter((t) => !excepted(v.id, t.split(' >> ')[0]!)),
          detail: (v.nodes[0]?.failureSummary ?? '').replace(/\s+/g, ' ').slice(0, 300),
        }))
        .filter((v) => v.targets.length > 0);
      const ran = [...results.violations, ...results.passes, ...results.incomplete, ...results.inapplicable].map(
        (r) => r.id,
      );
      const h1s = Array.from(document.querySelectorAll('h1'))
        .filter((h) => h.checkVisibility({ visibilityProperty: true }) && !h.closest('[aria-hidden="true"]'))
        .map((h) => (h.textContent ?? '').trim().slice(0, 60));
      return { url, skipped: false, ran, violations, h1s };
    },
    { tags: TAGS, exceptions: A11Y_EXCEPTIONS.map(({ rule, selector }) => ({ rule, selector })) },
  );
  if (found.skipped) return [];
  const out: A11yProblem[] = found.violations.map((v) => ({
    rule: v.id,
    impact: v.impact,
    help: v.help,
    helpUrl: v.helpUrl,
    targets: v.targets,
    url: found.url,
    detail: v.detail,
  }));
  if (found.h1s.length !== 1)
    out.push({
      rule: 'one-h1',
      impact: 'serious',
      help: `A page has exactly one visible h1 (found ${found.h1s.length})`,
      helpUrl: 'docs/decisions/136-accessibility-checks.md',
      targets: found.h1s.map((t) => `h1 "${t}"`),
      url: found.url,
    });
  const missing = REQUIRED_RULES.filter((r) => !found.ran.includes(r));
  if (missing.length > 0)
    out.push({
      rule: 'required-rules',
      impact: 'critical',
      help: `axe did not evaluate ${missing.join(', ')}`,
      helpUrl: 'docs/decisions/136-accessibility-checks.md',
      targets: [],
      url: found.url,
    });
  return out;
}

const productPage = (page: Page, origin: string) => !page.isClosed() && page.url().startsWith(origin);

/** Audit `page` now (after it settles) and record what it finds; a page that navigates away meanwhile is skipped. */
async function auditAndRecord(page: Page, origin: string): Promise<void> {
  if (!enabled || !productPage(page, origin)) return;
  try {
    await settle(page);
    const url = page.url();
    const found = await auditPage(page);
    // A page that navigated (a new document) during the audit is audited again by its own navigation.
    if (page.url() === url) record(found);
  } catch (err) {
    // The page closed or navigated to a new document while settling or auditing: its next audit covers it.
    const message = (err as Error).message ?? '';
    if (!/closed|destroyed|navigat|Target|detached/i.test(message)) throw err;
  }
}

/** One audit at a time per page; navigations during an audit ask for one more, not one each. */
function watchPage(page: Page, origin: string): void {
  if (watched.has(page)) return;
  watched.add(page);
  trackRequests(page);
  let running: Promise<void> | undefined;
  let again = false;
  const run = (): Promise<void> => {
    if (running) {
      again = true;
      return running;
    }
    const p = (async () => {
      do {
        again = false;
        await auditAndRecord(page, origin);
      } while (again && !page.isClosed());
    })().finally(() => {
      running = undefined;
      inFlight.delete(p);
    });
    running = p;
    inFlight.add(p);
    return p;
  };
  page.on('framenavigated', (frame) => {
    if (enabled && frame === page.mainFrame()) void run().catch(() => undefined);
  });
  auditors.set(page, run);
}

const auditors = new WeakMap<Page, () => Promise<void>>();
const contexts = new Set<BrowserContext>();

function watchContext(context: BrowserContext, origin: string): void {
  if (contexts.has(context)) return;
  contexts.add(context);
  context.on('page', (p) => watchPage(p, origin));
  context.pages().forEach((p) => watchPage(p, origin));
  context.on('close', () => contexts.delete(context));
  const close = context.close.bind(context);
  // The last state of each page is audited before the journey closes its context.
  context.close = async (options) => {
    await auditOpenPages(context.pages());
    return close(options);
  };
}

async function auditOpenPages(pages: Page[]): Promise<void> {
  if (!enabled) return;
  await Promise.all(
    pages.map(async (p) => {
      const run = auditors.get(p);
      if (!run || p.isClosed()) return;
      // One running since before the last change does one more pass after it (see watchPage).
      await run();
    }),
  );
}

/** Make every context (and so every page) of `browser` audited; the product's pages only (`origin`). */
export function instrumentBrowser(browser: Browser, origin: string): Browser {
  const newContext = browser.newContext.bind(browser);
  browser.newContext = async (options) => {
    const context = await newContext(options);
    watchContext(context, origin);
    return context;
  };
  const newPage = browser.newPage.bind(browser);
  browser.newPage = async (options) => {
    const page = await newPage(options);
    watchContext(page.context(), origin);
    watchPage(page, origin);
    return page;
  };
  return browser;
}

/** After a test: wait for the running audits, audit every open page once more (unless `final` is false). */
export async function finishA11yAudits(final: boolean): Promise<void> {
  if (final) await auditOpenPages([...contexts].flatMap((c) => c.pages()));
  while (inFlight.size > 0) await Promise.allSettled([...inFlight]);
}
