import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, noBrowser } from './support/browser';
import { mainOf as main, signInAsStaff } from './support/staff-session';

/*
 * Returns and refunds (issue 16 point 5, decision 122), as the people who do them work: Customer Service opens
 * "Returns and refunds" from the navigation, picks a recent hardware sale paid by card (the demo's recent stores),
 * ticks one terminal, says why, and sees the preview: the terminal's price less the 250.00 restocking fee goes back to
 * the card. Requested → the return opens; Mark received (the terminal is retired) → Mark inspected. AR opens "Refund"
 * from the navigation, opens the waiting return and refunds it to the card: the credit lands on the invoice and the
 * rest goes back through the gateway (one request, with an Idempotency-Key).
 */

interface Sale {
  store_id: number;
  invoice_number: string;
  currency: string;
  paid_cents: number;
  open_cents: number;
  card_refundable: boolean;
  legal_name: string;
  terminals: { terminal_id: number; elmer_id: string; unit_cents: number; blocked_reason: string | null }[];
}

const FEE = 250_00;
const amount = (cents: number) =>
  (cents / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 });

describe.skipIf(noBrowser)('returns: request → receive → inspect → refund to the card (issue 16)', () => {
  let browser: Browser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(() => browser?.close());

  it('a return of one terminal with the restocking fee refunds the rest to the card', async () => {
    // ── Customer Service requests the return ─────────────────────────────────────────────────────────────────
    const service = await signInAsStaff(browser, 'service@example.com');
    const page = service.page;
    const nav = page.getByRole('navigation', { name: 'Main' });
    const eligibleAnswer = page.waitForResponse((r) => /\/api\/returns\/eligible\//.test(r.url()) && r.ok());
    await nav.getByRole('link', { name: 'Returns and refunds', exact: true }).click();
    await main(page).getByRole('heading', { name: 'Start a return', level: 1 }).waitFor();
    expect(new URL(page.url()).hash).toBe('#/returns-refund');

    // The recent hardware sales the screen lists: one paid in full by card, with a terminal that may come back.
    const { sales } = ((await (await eligibleAnswer).json()) as { info: { sales: Sale[] } }).info;
    const sale = sales.find(
      (s) =>
        s.card_refundable &&
        s.open_cents === 0 &&
        s.terminals.some(
          (t) => t.blocked_reason === null && t.unit_cents - FEE > 0 && t.unit_cents - FEE <= s.paid_cents,
        ),
    );
    expect(sale, 'the demo data has a recent hardware sale paid by card').toBeDefined();
    const terminal = sale!.terminals.find((t) => t.blocked_reason === null)!;
    const refund = terminal.unit_cents - FEE;

    await main(page)
      .getByRole('radio', { name: new RegExp(sale!.invoice_number) })
      .check();
    const form = main(page).getByRole('form', { name: new RegExp(`Return from .*${sale!.invoice_number}`) });
    await form.getByRole('checkbox', { name: new RegExp(`^Terminal ${terminal.elmer_id} `) }).check();
    await form.getByLabel('Why are they coming back?').fill('The store closed its second till.');

    // The preview: the terminal's price − the restocking fee = the credit, all of it back to the card (paid in full).
    const preview = form.getByRole('table', { name: 'Refund preview' });
    expect(await preview.getByRole('row', { name: /^Restocking fee/ }).textContent()).toContain(
      `− ${sale!.currency === 'CAD' ? 'C$' : '$'}${amount(FEE)}`,
    );
    const refundRow = preview.getByRole('row', { name: /Refund to the merchant \(to the card\)/ });
    expect(await refundRow.textContent()).toContain(amount(refund));

    const [created] = await Promise.all([
      page.waitForResponse((r) => /\/api\/returns\/[^/]+$/.test(r.url()) && r.request().method() === 'POST'),
      form.getByRole('button', { name: 'Request return' }).click(),
    ]);
    expect(created.status()).toBe(201);
    const returnId = ((await created.json()) as { info: { id: number } }).info.id;
    await page
      .getByRole('alert')
      .filter({ hasText: `Return #${returnId} requested` })
      .waitFor();
    await page.waitForURL((url) => url.hash === `#/viewreturns?id=${returnId}`);

    const panel = main(page).getByRole('region', { name: new RegExp(`^Return #${returnId} — `) });
    await panel.getByRole('button', { name: 'Mark received' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: `Return #${returnId}: Received` })
      .waitFor();
    expect(await page.getByRole('alert').filter({ hasText: 'Received' }).last().textContent()).toContain(
      "retired and left the store's terminal list",
    );
    await panel.getByRole('button', { name: 'Mark inspected' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: `Return #${returnId}: Inspected` })
      .waitFor();
    // Customer Service may not move money: no refund from here for them (the server refuses; AR does it).
    expect(service.errors).toEqual([]);
    await service.context.close();

    // ── AR refunds it ───────────────────────────────────────────────────────────────────────────────────────
    const ar = await signInAsStaff(browser, 'ar@example.com');
    const arPage = ar.page;
    await arPage.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Refund', exact: true }).click();
    await main(arPage).getByRole('heading', { name: 'Refunds', level: 1 }).waitFor();
    expect(new URL(arPage.url()).hash).toBe('#/refund');
    const waiting = main(arPage).getByRole('table', { name: /^Returns waiting for a refund — / });
    await waiting.getByRole('link', { name: `Refund return #${returnId}` }).click();

    const arPanel = main(arPage).getByRole('region', { name: new RegExp(`^Return #${returnId} — `) });
    const breakdown = arPanel.getByRole('table', { name: `Refund of return #${returnId}` });
    await breakdown.waitFor();
    expect(await breakdown.getByRole('row', { name: /Credit to the invoice/ }).textContent()).toContain(amount(refund));
    expect(await breakdown.getByRole('row', { name: /To pay back/ }).textContent()).toContain(amount(refund));

    await arPanel.getByRole('button', { name: 'Refund to card' }).click();
    const dialog = arPage.getByRole('dialog', { name: `Refund return #${returnId}` });
    expect(await dialog.textContent()).toContain(
      `pay ${sale!.currency === 'CAD' ? 'C$' : '$'}${amount(refund)} back to the card`,
    );
    const [refunded] = await Promise.all([
      arPage.waitForResponse((r) => new RegExp(`/api/returns/${returnId}/refund/`).test(r.url())),
      dialog.getByRole('button', { name: 'Refund to the card' }).click(),
    ]);
    expect(refunded.status()).toBe(200);
    expect(refunded.request().headers()['idempotency-key']).toMatch(/^[0-9a-f-]{36}$/);
    const info = ((await refunded.json()) as { info: { status: string; refund_cents: number; refund_method: string } })
      .info;
    expect(info).toMatchObject({ status: 'refunded', refund_cents: refund, refund_method: 'gateway' });

    const toast = arPage.getByRole('alert').filter({ hasText: `Return #${returnId} refunded` });
    await toast.waitFor();
    expect(await toast.textContent()).toContain(`${amount(refund)} paid back to the card`);
    await breakdown.getByRole('row', { name: /Paid back to the card/ }).waitFor();
    expect(await arPanel.getByRole('listitem').filter({ hasText: 'Refunded' }).getAttribute('aria-current')).toBe(
      'step',
    );
    expect(ar.errors).toEqual([]);
    await ar.context.close();
  });
});
