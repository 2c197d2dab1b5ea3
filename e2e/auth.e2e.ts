import { appendFileSync } from 'node:fs';
import path from 'node:path';
import { loginRedirect, privilegesForRole, ROLES, type AuthConfigInfo, type LoginInfo } from '@pos/domain';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  callApi,
  clearRoutes,
  landingOf,
  recordRoutes,
  routesOf,
  startAuthServer,
  type AuthServer,
} from './support/auth-server';
import { launchBrowser, noBrowser } from './support/browser';
import { signInThroughChooser, waitForSignedIn } from './support/sign-in';

type Account = NonNullable<AuthConfigInfo['accounts']>[number];

describe.skipIf(noBrowser)('sign-in, sessions and the app frame in a real browser (issue 4)', () => {
  let server: AuthServer;
  let browser: Browser;
  let accounts: Account[];

  beforeAll(async () => {
    server = await startAuthServer();
    browser = await launchBrowser();
    const config = (await (await fetch(`${server.baseUrl}/api/auth/config`)).json()) as { info: AuthConfigInfo };
    accounts = config.info.accounts ?? [];
  });
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  const accountFor = (role: string): Account => {
    const account = accounts.find((a) => a.role === role);
    if (!account) throw new Error(`the demo data has no staff user with role ${role}`);
    return account;
  };

  /** Where rules 1–7 send a role with no saved return URL: computed from the domain, not by hand. */
  const expectedLanding = (role: string) =>
    `#${loginRedirect({ returnUrl: null, granted: privilegesForRole(role) })?.path ?? '/login'}`;

  async function open(hash: string, setup?: (context: BrowserContext) => Promise<void>) {
    const context = await browser.newContext({ baseURL: server.baseUrl });
    await setup?.(context);
    await recordRoutes(context);
    const page = await context.newPage();
    const dialogs: string[] = [];
    page.on('dialog', (dialog) => {
      dialogs.push(dialog.message());
      void dialog.accept();
    });
    await page.goto(`/#${hash}`);
    return { context, page, dialogs };
  }

  const main = (page: Page) => page.getByRole('main');
  const header = (page: Page) => page.getByRole('banner');

  it.each(ROLES)('%s signs in through the chooser and lands where rules 1–7 say', async (role) => {
    const account = accountFor(role);
    const { context, page } = await open('/login');
    await signInThroughChooser(page, account);

    expect(landingOf(await routesOf(page))).toBe(expectedLanding(role));
    expect(new URL(page.url()).search).toBe('');
    expect(await page.evaluate(() => sessionStorage.getItem('isLoggedIn'))).toBe('true');
    expect(await page.evaluate(() => sessionStorage.getItem('role'))).toBe(role);
    await header(page).getByRole('button', { name: 'Signout' }).waitFor();
    await context.close();
  });

  it('Signout releases the session and returns to the sign-in page', async () => {
    const account = accountFor('Customer Support');
    const { context, page } = await open('/login');
    await signInThroughChooser(page, account);
    const token = await page.evaluate(
      () => (JSON.parse(sessionStorage.getItem('sessionInfo') ?? '{}') as { token?: string }).token,
    );

    await header(page).getByRole('button', { name: 'Signout' }).click();
    await header(page).getByRole('button', { name: 'Signout' }).waitFor({ state: 'detached' });
    expect(new URL(page.url()).hash).toBe('#/login');
    expect(await page.evaluate(() => sessionStorage.getItem('isLoggedIn'))).toBe('false');
    expect(await page.evaluate(() => sessionStorage.getItem('search_orders_edit'))).toBe('false');
    expect(await page.evaluate(() => sessionStorage.getItem('create_distributor_orders'))).toBe('false');
    const released = await context.request.get(`${server.baseUrl}/api/auth/validate/${token}`);
    expect(released.status()).toBe(403);
    await context.close();
  });

  it('the one-tap prompt signs in with a demo account on first load', async () => {
    const account = accountFor('Admin');
    const { context, page } = await open('/login');
    const prompt = page.getByRole('region', { name: 'Sign in with your demo account' });
    await prompt.getByRole('button', { name: `Continue as ${account.name} (${account.email})` }).click();
    await waitForSignedIn(page, account);
    expect(landingOf(await routesOf(page))).toBe(expectedLanding('Admin'));
    // Flagged logged in now: a new visit of the sign-in page offers no prompt.
    await page.goto('/#/login');
    await page.reload();
    await main(page).getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    expect(await prompt.count()).toBe(0);
    await context.close();
  });

  it('a deep link opened while signed out is where sign-in returns to (rule 1)', async () => {
    const account = accountFor('RAM');
    const deepLink = '/neworder?zoholeadid=4455';
    const { context, page } = await open(deepLink);
    await main(page).getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/login');
    expect(await page.evaluate(() => sessionStorage.getItem('returnUrl'))).toBe(deepLink);

    await clearRoutes(page);
    await signInThroughChooser(page, account);
    expect(landingOf(await routesOf(page))).toBe(`#${deepLink}`);
    expect(await page.evaluate(() => sessionStorage.getItem('returnUrl'))).toBeNull();
    await context.close();
  });

  it("a refused token shows 'Authentication failed.' in red and in an alert, with no spinner", async () => {
    const { context, page, dialogs } = await open('/login?id_token=garbage');
    const message = main(page).getByText('Authentication failed.', { exact: true });
    await message.waitFor();
    const [r = 0, g = 0, b = 0] =
      (await message.evaluate((el) => getComputedStyle(el).color)).match(/\d+/g)?.map(Number) ?? [];
    expect(r > 150 && g < 120 && b < 120, `red text, got rgb(${r}, ${g}, ${b})`).toBe(true);
    await expect.poll(() => dialogs).toEqual(['Authentication failed.']);
    await page.getByRole('status', { name: 'Loading' }).waitFor({ state: 'detached' });
    expect(new URL(page.url()).hash).toBe('#/login');
    expect(await page.evaluate(() => sessionStorage.getItem('sessionInfo'))).toBeNull();
    await context.close();
  });

  it('a token the server refuses (a forged signature) fails the same way', async () => {
    const account = accountFor('Admin');
    const { context, page, dialogs } = await open('/login');
    // The provider hands over a credential whose signature was tampered with; the server must refuse it.
    await page.route('**/api/dev/idtoken', async (route) => {
      const response = await route.fetch();
      const { info } = (await response.json()) as { info: { idtoken: string } };
      const [head, body] = info.idtoken.split('.');
      await route.fulfill({ response, json: { info: { idtoken: `${head}.${body}.${'A'.repeat(86)}` } } });
    });
    let authenticateStatus = 0;
    page.on('response', (r) => {
      if (r.url().endsWith('/api/auth/authenticate')) authenticateStatus = r.status();
    });
    await page
      .getByRole('region', { name: 'Sign in with your demo account' })
      .getByRole('button', { name: `Continue as ${account.name} (${account.email})` })
      .click();
    await main(page).getByText('Authentication failed.', { exact: true }).waitFor();
    await expect.poll(() => dialogs).toEqual(['Authentication failed.']);
    expect(authenticateStatus).toBeGreaterThanOrEqual(400);
    expect(authenticateStatus).toBeLessThan(500);
    await context.close();
  });

  it('a distributor signs in at /distributor and lands on /order; Signout goes back to /distributor and reloads', async () => {
    const { context, page } = await open('/distributor');
    await main(page).getByRole('heading', { name: 'Distributor sign-in' }).waitFor();
    await clearRoutes(page);
    await main(page).getByLabel('E-mail').fill('distributor@example.com');
    await main(page).getByLabel('Password', { exact: true }).fill('distributor-demo');
    await main(page).getByRole('button', { name: 'Sign in', exact: true }).click();

    await waitForSignedIn(page, { name: 'Nora Quinn', email: 'distributor@example.com' });
    expect(landingOf(await routesOf(page))).toBe('#/order');
    expect(await page.evaluate(() => sessionStorage.getItem('role'))).toBe('Distributor');

    const reloaded = page.waitForEvent('load');
    await header(page).getByRole('button', { name: 'Signout' }).click();
    await reloaded;
    expect(new URL(page.url()).hash).toBe('#/distributor');
    await main(page).getByRole('heading', { name: 'Distributor sign-in' }).waitFor();
    expect(await page.evaluate(() => sessionStorage.getItem('isLoggedIn'))).toBe('false');
    await context.close();
  });

  it('a make-token (distributor token) session is denied /order and has no Signout button', async () => {
    // An Admin makes an integration key for the demo distributor's agent; the integration exchanges it
    // for a make-token session (GET /api/auth/{key}/gettoken).
    const setupContext = await browser.newContext({ baseURL: server.baseUrl });
    const setupPage = await setupContext.newPage();
    await setupPage.goto('/');
    const { idtoken } = await callApi<{ idtoken: string }>(setupContext, server.baseUrl, 'POST', '/api/dev/idtoken', {
      email: accountFor('Admin').email,
    });
    const admin = await callApi<LoginInfo>(setupContext, server.baseUrl, 'POST', '/api/auth/authenticate', { idtoken });
    const distributorIdToken = await callApi<{ idtoken: string }>(
      setupContext,
      server.baseUrl,
      'POST',
      '/api/dev/idtoken',
      { email: accountFor('Distributor').email },
    );
    const distributorStaff = await callApi<LoginInfo>(setupContext, server.baseUrl, 'POST', '/api/auth/authenticate', {
      idtoken: distributorIdToken.idtoken,
    });
    expect(distributorStaff.agent_id).not.toBeNull();
    const { key } = await callApi<{ key: string }>(
      setupContext,
      server.baseUrl,
      'POST',
      `/api/auth/integrationkeys/${admin.token}`,
      {
        name: 'e2e make-token',
        agent_id: distributorStaff.agent_id,
      },
    );
    const made = await callApi<{ token: string; maketoken: boolean; agent_id: number; role: string }>(
      setupContext,
      server.baseUrl,
      'GET',
      `/api/auth/${encodeURIComponent(key)}/gettoken`,
    );
    expect(made.maketoken).toBe(true);
    await setupContext.close();

    // The spec names no screen that receives a make-token session; the tab holds it the way the app keeps
    // any session (spec §3: session info in session storage), as an integration's entry would leave it.
    const { context, page } = await open('/order', async (ctx) => {
      await ctx.addInitScript(
        ({ token, agentId, role }) => {
          if (sessionStorage.getItem('sessionInfo')) return;
          sessionStorage.setItem(
            'sessionInfo',
            JSON.stringify({
              token,
              name: '',
              email: '',
              agentID: String(agentId),
              role,
              account_manager: null,
              additional_privileges: [],
            }),
          );
          sessionStorage.setItem('isLoggedIn', 'true');
          sessionStorage.setItem('role', role);
        },
        { token: made.token, agentId: made.agent_id, role: made.role },
      );
    });
    await main(page).getByRole('heading', { name: 'Access denied' }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/order');
    expect(await page.evaluate(() => sessionStorage.getItem('distributor_token'))).toBe('true');
    expect(await header(page).getByRole('button', { name: 'Signout' }).count()).toBe(0);
    expect(await header(page).getByRole('button', { name: 'Sign in' }).count()).toBe(0);
    await context.close();
  });

  it('inactivity: the overlay appears after an hour, counts down, Extend keeps the session, 0 signs out', async () => {
    const account = accountFor('Marketing');
    const { context, page } = await open('/login', async (ctx) => {
      await ctx.clock.install();
    });
    await signInThroughChooser(page, account);
    // A signed-in screen (not /login or /distributor): Marketing has no failed_payments_edit.
    await page.goto('/#/payments');
    await main(page).getByRole('heading', { name: 'Access denied' }).waitFor();
    // From here the page's time moves only when the test moves it.
    await page.clock.pauseAt(Date.now() + 1000);

    const overlay = page.getByRole('dialog', { name: 'Session Timeout' });
    await page.clock.fastForward('59:00');
    expect(await overlay.count()).toBe(0);
    await page.clock.fastForward('01:00');
    await overlay.getByText('Your session will expire in 50 seconds due to inactivity.').waitFor();
    await page.clock.runFor(10_000);
    await overlay.getByText('Your session will expire in 40 seconds due to inactivity.').waitFor();

    await overlay.getByRole('button', { name: 'Extend my Session' }).click();
    await overlay.waitFor({ state: 'detached' });
    await page.clock.runFor(5000);
    expect(await overlay.count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.getItem('isLoggedIn'))).toBe('true');
    await header(page).getByRole('button', { name: 'Signout' }).waitFor();

    await page.clock.fastForward('01:00:00');
    await overlay.getByText(/Your session will expire in \d+ seconds due to inactivity\./).waitFor();
    await page.clock.runFor(50_000);
    await main(page).getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/login');
    expect(await page.evaluate(() => sessionStorage.getItem('isLoggedIn'))).toBe('false');
    expect(await header(page).getByRole('button', { name: 'Signout' }).count()).toBe(0);
    await context.close();
  });

  it('app update: a new service worker version shows the banner, counts down from 10 and reloads', async () => {
    const { context, page } = await open('/login', async (ctx) => {
      await ctx.clock.install();
    });
    await main(page).getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    // The first version installs and activates quietly: no banner for a first visit.
    await page.evaluate(async () => {
      await navigator.serviceWorker.ready;
    });
    expect(await page.getByText('New update is available.').count()).toBe(0);
    // From here the page's time moves only when the test moves it.
    await page.clock.pauseAt(Date.now() + 1000);

    // Deploy a new version, then let the open tab's periodic check find it.
    appendFileSync(path.join(server.webDist, 'ngsw-worker.js'), `\n// deployed ${Date.now()}\n`);
    await page.clock.fastForward('30:00');
    const banner = page.getByRole('status').filter({ hasText: 'New update is available.' });
    await banner.getByText('page will be reloaded in 10 sec').waitFor();
    await page.clock.runFor(4000);
    await banner.getByText('page will be reloaded in 6 sec').waitFor();

    const reloaded = page.waitForEvent('load');
    await page.clock.runFor(6000);
    await reloaded;
    await main(page).getByRole('heading', { name: 'Sign in', exact: true }).waitFor();
    expect(await page.getByText('New update is available.').count()).toBe(0);
    await context.close();
  });
});
