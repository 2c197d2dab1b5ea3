import { describe, expect, it } from 'vitest';
import {
  monthIndex,
  ordersReportListQuery,
  ordersReportQuery,
  repCustomersQuery,
  salesReportQuery,
} from './sales-reports';

describe('sales report contracts (decision 129)', () => {
  it('fills the defaults: created date, json, rep, page of 50', () => {
    expect(ordersReportQuery.parse({})).toEqual({ date_basis: 'created', format: 'json' });
    expect(salesReportQuery.parse({})).toEqual({ group: 'rep', limit: 50, offset: 0, format: 'json' });
    expect(repCustomersQuery.parse({ limit: '10' })).toEqual({ limit: 10, offset: 0, format: 'json' });
  });

  it('refuses a reversed or too long range, a bad month, an unknown channel or sort', () => {
    const fields = (r: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
      r.error?.issues.map((i) => i.path.join('.')).sort();
    expect(fields(ordersReportQuery.safeParse({ from: '2026-02-01', to: '2026-01-31' }))).toEqual(['to']);
    expect(fields(ordersReportQuery.safeParse({ from: '2010-01-01', to: '2026-01-01' }))).toEqual(['from']);
    expect(fields(salesReportQuery.safeParse({ from_month: '2026-00', to_month: '2020-01' }))).toEqual(['from_month']);
    expect(fields(salesReportQuery.safeParse({ from_month: '2021-01', to_month: '2026-01' }))).toEqual(['to_month']);
    expect(salesReportQuery.safeParse({ from_month: '2021-02', to_month: '2026-01' }).success).toBe(true);
    expect(fields(ordersReportListQuery.safeParse({ channel: 'Web', sort: 'status' }))).toEqual(['channel', 'sort']);
    expect(ordersReportListQuery.parse({ channel: 'none', sort: '-total_sale_cents' })).toMatchObject({
      channel: 'none',
      sort: '-total_sale_cents',
    });
  });

  it('counts months across years', () => {
    expect(monthIndex('2026-01') - monthIndex('2025-12')).toBe(1);
    expect(monthIndex('2026-11-01') - monthIndex('2024-12')).toBe(23);
  });
});
