import type { OrderSearchResult } from '@pos/domain';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { e2e, launchBrowser, noBrowser } from './support/browser';
import { mainOf as main, sessionToken, signInAsStaff } from './support/staff-session';

/*
 * One order-access rule (issue 12, decision 102): a link to one order (#/order?id=…) opens its panel for whoever may
 * see the order; an RDC user (agent-scoped: it sees only its agent's orders) who opens a link to another agent's
 * order is told "not found" — as for an order that does not exist — not shown a blank page, a "forbidden", or
 * signed out. The demo's orders placed through agents belong to distributors; rdc@example.com works for RDC
 * Southwest, which has none.
 */
describe.skipIf(noBrowser)("order access: a link to another agent's order (issue 12)", () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('admin opens the link to an order; rdc@example.com opening the same link sees "not found" and stays signed in', async () => {
    // An order of another agent (a distributor's), as Admin — who sees every order — finds it.
    const admin = await signInAsStaff(browser, 'admin@example.com');
    const adminToken = await sessionToken(admin.page);
    const list = (
      (await (
        await admin.page.request.get(`${e2e.baseUrl}/api/customers/orders/search/${adminToken}?limit=200`)
      ).json()) as { info: OrderSearchResult }
    ).info;
    const order = list.items.find((o) => o.agent !== null && !o.agent.startsWith('RDC'));
    expect(order, 'the demo data has orders placed through a distributor').toBeDefined();
    const { id, unified_order_id: unified } = order!;

    // The link works: Admin gets the order's panel.
    await admin.page.goto(`/#/order?id=${id}`);
    const panel = main(admin.page).getByRole('region', { name: `Order ${unified}` });
    await panel.getByRole('region', { name: 'Order summary' }).getByText(order!.agent!).waitFor();
    expect(admin.errors).toEqual([]);
    await admin.context.close();

    // The RDC user opens the same link: "not found", on the order list, still signed in.
    const rdc = await signInAsStaff(browser, 'rdc@example.com');
    await rdc.page.goto(`/#/order?id=${id}`);
    const alert = main(rdc.page)
      .getByRole('alert')
      .filter({ hasText: `Order ${id} was not found.` });
    await alert.waitFor();
    expect(await alert.textContent()).toContain('Not found');
    expect(await alert.textContent()).not.toMatch(/forbidden|another agent|not allowed/i);
    await main(rdc.page)
      .getByRole('table', { name: /^Orders — \d+ match/ })
      .waitFor();
    expect(
      await main(rdc.page)
        .getByRole('region', { name: `Order ${unified}` })
        .count(),
    ).toBe(0);
    expect(new URL(rdc.page.url()).hash).toBe(`#/order?id=${id}`);
    expect(await sessionToken(rdc.page)).not.toBe('');

    // The order flow's own links to the order answer the same way.
    await rdc.page.goto(`/#/summary/${id}`);
    await main(rdc.page)
      .getByRole('alert')
      .filter({ hasText: `Order ${id} was not found.` })
      .waitFor();
    expect(await sessionToken(rdc.page)).not.toBe('');

    // Behind the screens: the same 404 as for an order that does not exist, whichever way the order is asked for.
    const token = await sessionToken(rdc.page);
    for (const path of [`/api/customers/orders/${id}/${token}`, `/api/customers/orderinfo/${token}?id=${id}`]) {
      const res = await rdc.page.request.get(`${e2e.baseUrl}${path}`);
      expect([res.status(), (await res.json()).error]).toEqual([
        404,
        { code: 'not_found', message: `Order ${id} was not found.` },
      ]);
    }
    // The only console errors are the browser's own lines for the 404 answers.
    expect(rdc.errors.filter((e) => !/status of 404/.test(e))).toEqual([]);
    await rdc.context.close();
  });
});
