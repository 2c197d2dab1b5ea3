import type { Locator, Page } from 'playwright-core';
import { mainOf } from './staff-session';

/*
 * The #/order list as the approvers use it: find an order by its unified id, open its panel, move it on.
 */

/**
 * The order list's Status filter (several at once, §2's dropdown): take the chosen statuses off, then choose each of
 * `labels` (an option's label starts with the status's name: "Pending AR Approval (121)"). None: every status.
 */
export async function chooseOrderStatuses(filters: Locator, labels: readonly string[]): Promise<void> {
  const remove = filters.getByRole('button', { name: /^Remove / });
  while ((await remove.count()) > 0) await remove.first().click();
  if (labels.length === 0) return;
  const box = filters.getByRole('combobox', { name: 'Status' });
  for (const label of labels) {
    await box.click();
    await filters
      .getByRole('listbox', { name: 'Status' })
      .getByRole('option', { name: new RegExp(`^${label.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} \\(`) })
      .click();
  }
  await box.press('Escape');
}

/** Filter the order list by text (unified order id, legal name, DBA or tax id) and open the order's panel. */
export async function openOrder(page: Page, unifiedOrderId: string, status?: string): Promise<Locator> {
  if (!page.url().includes('#/order')) await page.goto('/#/order');
  const main = mainOf(page);
  const filters = main.getByRole('search', { name: 'Filter orders' });
  await filters.waitFor();
  // An open order's panel stands over the right of the list: close it first.
  const close = main.getByRole('button', { name: 'Close order details' });
  if (await close.isVisible()) await close.click();
  if (status !== undefined) await chooseOrderStatuses(filters, status === 'Any status' ? [] : [status]);
  await filters.getByRole('textbox', { name: 'Search text' }).fill(unifiedOrderId);
  await filters.getByRole('button', { name: 'Apply', exact: true }).click();
  const open = main.getByRole('link', { name: `Open order ${unifiedOrderId}` });
  await open.waitFor();
  await open.click();
  const panel = main.getByRole('region', { name: `Order ${unifiedOrderId}` });
  await panel.waitFor();
  return panel;
}

/**
 * In an open order panel: choose the new status by its label, give a note, change it and wait for the toast. The move
 * to Complete at Installation takes the terminals' serial numbers (decision 150): `serials`, one per terminal, in order.
 */
export async function changeStatus(
  page: Page,
  panel: Locator,
  toLabel: string,
  note: string,
  serials: readonly string[] = [],
): Promise<void> {
  const change = panel.getByRole('region', { name: 'Change status' });
  await change.getByRole('combobox', { name: 'New status' }).selectOption({ label: toLabel });
  for (const [i, serial] of serials.entries()) {
    await change
      .getByRole('textbox', { name: `Serial number, terminal ${i + 1} of ${serials.length}`, exact: true })
      .fill(serial);
  }
  await change.getByRole('textbox', { name: 'Status note' }).fill(note);
  await change.getByRole('button', { name: 'Change status' }).click();
  await page.getByText(`Now ${toLabel}.`).first().waitFor();
}
