import { MantineProvider } from '@mantine/core';
import type { OrderTotals } from '@pos/domain';
import { render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { OrderTotalsTable, TotalsTable } from './totals-table';

const show = (ui: ReactNode) => render(<MantineProvider>{ui}</MantineProvider>);

/** Each row's cells as text: 'item | quantity | amount'. */
const rows = (table: HTMLElement) =>
  within(table)
    .getAllByRole('row')
    .slice(1)
    .map((r) => [...r.querySelectorAll('th, td')].map((c) => c.textContent).join(' | '));

const totals: OrderTotals = {
  currency: 'CAD',
  lines: [
    { section: 'hardware', description: 'Terminal', quantity: 2, amount_cents: 299_800 },
    { section: 'discount', description: 'Promotion WELCOME', quantity: 1, amount_cents: -5_000 },
    { section: 'tax', description: 'Tax (SK)', quantity: 1, amount_cents: 14_740 },
  ],
  subtotalCents: 299_800,
  discountCents: 5_000,
  taxCents: 14_740,
  totalCents: 309_540,
  recurringCents: 4_900,
  recurringIntervalMonths: 1,
  installments: null,
};

describe('TotalsTable', () => {
  it('lines and totals in the currency (C$), named by its caption even when the caption is not shown', () => {
    show(
      <TotalsTable
        caption="What you are signing for"
        captionHidden
        currency="CAD"
        lines={[{ description: 'Terminal', quantity: 2, amount_cents: 299_800 }]}
        totals={[{ label: 'Total', cents: 299_800, strong: true }]}
      />,
    );
    const table = screen.getByRole('table', { name: 'What you are signing for' });
    expect(rows(table)).toEqual(['Terminal | 2 | C$2,998.00', 'Total |  | C$2,998.00']);
  });
});

describe('OrderTotalsTable', () => {
  it('before tax: no tax line, the lines add up to the total before tax; the recurring charge per month', () => {
    show(<OrderTotalsTable totals={{ ...totals, taxCents: 0, totalCents: 294_800 }} caption="Order so far" />);
    expect(rows(screen.getByRole('table', { name: 'Order so far' }))).toEqual([
      'Terminal | 2 | C$2,998.00',
      'Promotion WELCOME | 1 | -C$50.00',
      'Total before tax |  | C$2,948.00',
      'Recurring |  | C$49.00 / month',
    ]);
  });

  it('with tax: the tax once (not also a line), the subtotal of the lines, the total; a yearly plan recurs per year', () => {
    show(<OrderTotalsTable totals={{ ...totals, recurringIntervalMonths: 12 }} caption="Totals (CAD)" showTax />);
    const table = screen.getByRole('table', { name: 'Totals (CAD)' });
    expect(rows(table)).toEqual([
      'Terminal | 2 | C$2,998.00',
      'Promotion WELCOME | 1 | -C$50.00',
      'Subtotal |  | C$2,948.00',
      'Tax |  | C$147.40',
      'Total |  | C$3,095.40',
      'Recurring |  | C$49.00 / year',
    ]);
    expect(table.textContent).not.toContain('CA$');
  });

  it('with tax lines: one row per component, named for the jurisdiction (decision 149)', () => {
    show(
      <OrderTotalsTable
        totals={totals}
        caption="Totals (CAD)"
        showTax
        taxLines={[
          { component: 'GST', label: 'GST 5%', rate_basis_points: 500, amount_cents: 14_740 - 8_844 },
          { component: 'PST', label: 'PST (SK) 6%', rate_basis_points: 600, amount_cents: 8_844 },
        ]}
      />,
    );
    const names = rows(screen.getByRole('table', { name: 'Totals (CAD)' })).map((r) => r.split(' | ')[0]);
    expect(names).toEqual(['Terminal', 'Promotion WELCOME', 'Subtotal', 'GST 5%', 'PST (SK) 6%', 'Total', 'Recurring']);
  });
});
