import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, noBrowser } from './support/browser';
import { listReady } from './support/lists';
import { keepScreenshot } from './support/screenshots';
import { mainOf as main, signInAsStaff } from './support/staff-session';

/*
 * Moving orders between agents in bulk (issue 31 item 3; spec §7 orderinfo/agentswitch/sns): an order editor selects
 * three orders of one agent in the order queue, moves them to another agent, follows the job and sees a result per
 * order, and the list shows the new agent. The journey then moves them back (the demo data is shared by the journeys).
 * Marketing, who may only view orders, sees no selection at all. One order's agents are changed from its panel too
 * ("Agents on this order", decision 162): an agent added, seen, and removed again.
 */

interface Row {
  readonly id: string;
  readonly agent: string;
}

/** The rows of the list's page: order number and agent (the Agent column). */
async function rowsOf(page: Page): Promise<Row[]> {
  return main(page)
    .getByRole('table', { name: /^Orders/ })
    .evaluate((table) => {
      const heads = Array.from(table.querySelectorAll('thead th')).map((th) => (th.textContent ?? '').trim());
      const agentAt = heads.findIndex((h) => h === 'Agent');
      return Array.from(table.querySelectorAll('tbody tr')).flatMap((tr) => {
        const link = tr.querySelector('a[aria-label^="Open order "]');
        const cells = tr.querySelectorAll('td, th');
        if (!link || agentAt < 0) return [];
        return [
          {
            id: (link.getAttribute('aria-label') ?? '').replace('Open order ', ''),
            agent: (cells[agentAt]?.textContent ?? '').trim(),
          },
        ];
      });
    });
}

/** Select the rows, move them to the agent found by `search`, and read the per-order results. */
async function moveTo(page: Page, ids: readonly string[], search: string, agentName: string): Promise<Locator> {
  for (const id of ids)
    await main(page)
      .getByRole('checkbox', { name: `Select order ${id}` })
      .check();
  const bar = main(page).getByRole('region', { name: 'Selected orders' });
  await bar.getByText(`${ids.length} selected`).waitFor();
  await bar.getByRole('button', { name: 'Move to agent…' }).click();
  const dialog = page.getByRole('dialog', { name: `Move ${ids.length} orders to an agent` });
  await dialog.waitFor();
  await dialog.getByRole('textbox', { name: 'Find an agent' }).fill(search);
  const picker = dialog.getByRole('combobox', { name: 'Agent' });
  await picker.locator('option', { hasText: agentName }).first().waitFor({ state: 'attached' });
  const value = await picker.locator('option', { hasText: agentName }).first().getAttribute('value');
  await picker.selectOption(value!);
  await dialog.getByRole('button', { name: `Move ${ids.length} orders` }).click();
  await dialog
    .getByText(new RegExp(`of ${ids.length} orders moved to ${agentName.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`))
    .waitFor({
      timeout: 60_000,
    });
  return dialog;
}

describe.skipIf(noBrowser)('moving orders between agents in bulk (issue 31 item 3)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('an order editor moves three orders of one agent to another, sees each result and the list, then moves them back', async () => {
    const { context, page, errors } = await signInAsStaff(browser, 'admin@example.com');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/#/order?status=');
    await listReady(page);

    // Three orders of one agent on the first page.
    const rows = await rowsOf(page);
    const byAgent = new Map<string, string[]>();
    for (const r of rows) if (r.agent !== '—') byAgent.set(r.agent, [...(byAgent.get(r.agent) ?? []), r.id]);
    const [from, ids] = [...byAgent.entries()].find(([, list]) => list.length >= 3) ?? [];
    if (!from || !ids) throw new Error(`no agent has three orders on the first page: ${JSON.stringify(rows)}`);
    const three = ids.slice(0, 3);
    const to = from === 'Gulf Coast POS Distributors' ? 'Demo Distributor LLC' : 'Gulf Coast POS Distributors';

    const dialog = await moveTo(page, three, to.slice(0, 8), to);
    const results = dialog.getByRole('list', { name: 'Move results' });
    for (const id of three) await results.getByText(new RegExp(`^${id}: (moved to|already with) `)).waitFor();
    await keepScreenshot(page, 'agent-switch-1-results');
    await dialog.getByRole('button', { name: 'Done' }).click();
    await dialog.waitFor({ state: 'detached' });

    // The list was asked again: the three rows name the new agent; nothing is selected any more.
    await expect
      .poll(async () => (await rowsOf(page)).filter((r) => three.includes(r.id)).map((r) => r.agent))
      .toEqual([to, to, to]);
    expect(await main(page).getByRole('region', { name: 'Selected orders' }).count()).toBe(0);
    await keepScreenshot(page, 'agent-switch-2-list-after');

    // Back to the agent they had (the journeys share the demo data).
    const back = await moveTo(page, three, from.slice(0, 8), from);
    await back.getByRole('button', { name: 'Done' }).click();
    await expect
      .poll(async () => (await rowsOf(page)).filter((r) => three.includes(r.id)).map((r) => r.agent))
      .toEqual([from, from, from]);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('an order editor puts an agent on one order from its panel, sees it in "Agents on this order", then removes it', async () => {
    const { context, page, errors } = await signInAsStaff(browser, 'admin@example.com');
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.goto('/#/order?status=');
    await listReady(page);

    const open = main(page)
      .getByRole('link', { name: /^Open order / })
      .first();
    const unified = (await open.getAttribute('aria-label'))!.replace('Open order ', '');
    await open.click();
    const panel = main(page).getByRole('region', { name: `Order ${unified}` });
    const section = panel.getByRole('region', { name: 'Agents on this order' });
    await section.getByRole('button', { name: 'Add agent…' }).waitFor();
    await section.scrollIntoViewIfNeeded();

    // A referral partner not on the order yet (the demo orders carry distributors).
    const onOrder = await section.getByRole('link').allTextContents();
    const agent = ['Northeast Merchant Referrals', 'Sunbelt Referral Partners', 'Prairie Retail Referrals'].find(
      (name) => !onOrder.includes(name),
    )!;
    await section.getByRole('button', { name: 'Add agent…' }).click();
    const dialog = page.getByRole('dialog', { name: `Add an agent to order ${unified}` });
    await dialog.waitFor();
    await dialog.getByRole('textbox', { name: 'Find an agent' }).fill(agent.slice(0, 9));
    const picker = dialog.getByRole('combobox', { name: 'Agent' });
    await picker.locator('option', { hasText: agent }).first().waitFor({ state: 'attached' });
    await picker.selectOption({ label: `${agent} (REFP)` });
    await keepScreenshot(page, 'order-agents-1-add');
    await dialog.getByRole('button', { name: 'Add agent', exact: true }).click();
    await page.getByText(`${agent} is now on order ${unified}.`).waitFor();
    await dialog.waitFor({ state: 'detached' });

    // The new row: the agent (a link to its page), its type and who added it.
    const row = section.getByRole('row').filter({ has: page.getByRole('link', { name: agent, exact: true }) });
    await row.waitFor();
    expect(await row.getByRole('cell').allTextContents()).toEqual(
      expect.arrayContaining(['REFP', 'admin@example.com']),
    );
    expect(await row.getByRole('link', { name: agent, exact: true }).getAttribute('href')).toMatch(
      /^#\/view-agent-stores\/\d+\//,
    );
    await keepScreenshot(page, 'order-agents-2-listed');

    // Off again (the journeys share the demo data): asked first, then gone.
    await row.getByRole('button', { name: `Remove ${agent}` }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove the agent from this order?' });
    await confirm.getByRole('button', { name: 'Remove agent' }).click();
    await page.getByText(`${agent} is no longer on order ${unified}.`).waitFor();
    await section.getByRole('link', { name: agent, exact: true }).waitFor({ state: 'detached' });
    expect(await section.getByRole('link').allTextContents()).toEqual(onOrder);

    expect(errors).toEqual([]);
    await context.close();
  });

  it('Marketing, who only views orders, sees no selection and no Move to agent', async () => {
    const { context, page, errors } = await signInAsStaff(browser, 'marketing@example.com');
    await page.goto('/#/order?status=');
    await listReady(page);
    expect(
      await main(page)
        .getByRole('checkbox', { name: /^Select order / })
        .count(),
    ).toBe(0);
    expect(await main(page).getByRole('button', { name: 'Move to agent…' }).count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
