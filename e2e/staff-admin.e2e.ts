import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, noBrowser } from './support/browser';
import { keepScreenshot } from './support/screenshots';
import { mainOf as main, signInAsStaff, type StaffSession } from './support/staff-session';

/*
 * Admin → Staff (issue 31 item 2, decision 157), as the Admin and the staff member live it: the Admin opens Staff
 * from the navigation, finds the Marketing demo user (Chloe Bennett, whose role has no `invoices`), grants the extra
 * privilege; Chloe signs in again and finds "Invoices" in her navigation and opens it. The Admin then revokes it and
 * Chloe's next sign-in is back to her role's screens. The e2e database is shared by every journey of the run, so the
 * grant is always undone (afterAll, through the same PUT, when the journey stopped half-way).
 */

const MARKETING = 'marketing@example.com';
const nav = (page: Page) => page.getByRole('navigation', { name: 'Main' });

/** The navigation's link names, every group opened. */
async function navNames(page: Page): Promise<string[]> {
  await nav(page).getByRole('link').first().waitFor();
  const collapsed = nav(page).locator('[aria-expanded="false"]');
  while ((await collapsed.count()) > 0) await collapsed.first().click();
  return (await nav(page).getByRole('link').allTextContents()).map((t) => t.trim());
}

/** The list has answered: its caption no longer says "loading". */
async function listLoaded(page: Page) {
  await page.waitForFunction(() => {
    const caption = document.querySelector('main table caption');
    return caption !== null && !/loading/i.test(caption.textContent ?? '');
  });
}

/** The PUT of spec §7 from a signed-in Admin page (XSRF header as the app sends it): Chloe's extras back to none. */
async function revokeExtras(page: Page): Promise<number> {
  return page.evaluate(async (email) => {
    const token = (JSON.parse(sessionStorage.getItem('sessionInfo') ?? '{}') as { token?: string }).token ?? '';
    const xsrf = decodeURIComponent(/(?:^|; )XSRF-TOKEN=([^;]*)/.exec(document.cookie)?.[1] ?? '');
    const r = await fetch(`/api/auth/getIdOrUpdateLoginRolePrivilegeEmail/${token}`, {
      method: 'PUT',
      headers: { 'Content-Type': 'application/json', 'X-XSRF-TOKEN': xsrf },
      body: JSON.stringify({ email, login_role_privilege_id: [] }),
    });
    return r.status;
  }, MARKETING);
}

describe.skipIf(noBrowser)('Admin → Staff: an extra privilege, granted and revoked (issue 31 item 2)', () => {
  let browser: Browser;
  let admin: StaffSession | undefined;
  let granted = false;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    if (granted && admin) expect(await revokeExtras(admin.page)).toBe(200);
    await browser?.close();
  });

  it('the Admin grants Marketing the invoices privilege; at her next sign-in she has Invoices, then it is revoked', async () => {
    // Before: Chloe (Marketing) is not offered Invoices.
    const before = await signInAsStaff(browser, MARKETING);
    expect(await navNames(before.page)).not.toContain('Invoices');
    await before.context.close();

    admin = await signInAsStaff(browser, 'admin@example.com');
    const { page } = admin;
    await page.setViewportSize({ width: 1280, height: 800 });
    await nav(page).getByRole('link', { name: 'Staff', exact: true }).click();
    await main(page).getByRole('heading', { name: 'Staff', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/admin/staff');
    await listLoaded(page);
    await keepScreenshot(page, 'staff-1-list');

    // Find her by e-mail; the filter stays in the address.
    const filters = main(page).getByRole('search', { name: 'Filter staff' });
    await filters.getByRole('textbox', { name: /Name or e-mail/ }).fill('marketing@');
    await filters.getByRole('button', { name: 'Apply' }).click();
    await page.waitForURL(/q=marketing/);
    await expect.poll(() => main(page).locator('table caption').textContent()).toBe('Staff — 1 account');
    const row = main(page).locator('tbody tr').first();
    expect(await row.textContent()).toContain('Marketing');
    await row.getByRole('link', { name: 'Open Chloe Bennett' }).click();
    await page.waitForURL(/id=\d+/);
    const panel = main(page).getByRole('region', { name: 'Chloe Bennett' });
    const invoices = panel.getByRole('checkbox', { name: 'Invoices', exact: true });
    await invoices.waitFor();
    expect(await invoices.isChecked()).toBe(false);
    // Her role's own privileges are ticked and locked.
    const viaRole = panel.getByRole('checkbox', { name: /Reports edit/ });
    expect(await viaRole.isChecked()).toBe(true);
    expect(await viaRole.isDisabled()).toBe(true);

    await invoices.check();
    await panel.getByRole('button', { name: 'Save privileges' }).click();
    granted = true;
    await page.getByText(/Chloe Bennett's extra privileges: Invoices\. Their open sessions were ended/).waitFor();
    await expect.poll(() => row.textContent()).toContain('Invoices');
    const box = (await panel.boundingBox())!;
    expect(box.x + box.width).toBeLessThanOrEqual(1280 + 1);
    await keepScreenshot(page, 'staff-2-privilege-granted');

    // Chloe signs in again: Invoices is in her navigation, and it opens.
    const after = await signInAsStaff(browser, MARKETING);
    expect(await navNames(after.page)).toContain('Invoices');
    await nav(after.page).getByRole('link', { name: 'Invoices', exact: true }).click();
    await main(after.page).getByRole('heading', { name: 'Invoices', level: 1 }).waitFor();
    await listLoaded(after.page);
    expect(await main(after.page).locator('table caption').textContent()).toMatch(/^Invoices — [\d,]+\+? match/);
    await keepScreenshot(after.page, 'staff-3-marketing-opens-invoices');
    expect(after.errors).toEqual([]);
    await after.context.close();

    // Revoked the same way: her next sign-in is back to her role's screens.
    await invoices.uncheck();
    await panel.getByRole('button', { name: 'Save privileges' }).click();
    await page.getByText(/Chloe Bennett's extra privileges: none\./).waitFor();
    granted = false;
    await expect.poll(() => row.textContent()).not.toContain('Invoices');
    const again = await signInAsStaff(browser, MARKETING);
    expect(await navNames(again.page)).not.toContain('Invoices');
    await again.context.close();

    expect(admin.errors).toEqual([]);
  });
});
