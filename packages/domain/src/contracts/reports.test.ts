import { describe, expect, it } from 'vitest';
import { agingInvoicesQuery, agingQuery, failedPaymentReportQuery, revenueQuery } from './reports';

describe('report contracts', () => {
  it('takes the common filters and defaults the format to json', () => {
    expect(
      revenueQuery.parse({ from: '2026-01-01', to: '2026-03-31', country: 'CA', currency: 'CAD', type: 'M' }),
    ).toEqual({ from: '2026-01-01', to: '2026-03-31', country: 'CA', currency: 'CAD', type: 'M', format: 'json' });
    expect(agingQuery.parse({ as_of: '2026-11-22', sort: '-days_31_60_cents' })).toMatchObject({
      as_of: '2026-11-22',
      limit: 50,
      offset: 0,
    });
    expect(agingInvoicesQuery.parse({ bucket: '90+', customer_id: '17' })).toMatchObject({
      bucket: '90+',
      customer_id: 17,
    });
  });

  it('refuses a range that runs backwards or is longer than ten years, and unknown values', () => {
    const backwards = failedPaymentReportQuery.safeParse({ from: '2026-05-01', to: '2026-04-30' });
    expect(backwards.success).toBe(false);
    expect(backwards.error?.issues[0]?.path).toEqual(['to']);
    expect(failedPaymentReportQuery.safeParse({ from: '2010-01-01', to: '2026-01-01' }).success).toBe(false);
    expect(agingInvoicesQuery.safeParse({ bucket: '31-59' }).success).toBe(false);
    expect(agingQuery.safeParse({ currency: 'EUR' }).success).toBe(false);
    expect(revenueQuery.safeParse({ country: 'MX' }).success).toBe(false);
  });
});
