import { describe, expect, it } from 'vitest';
import { agingBucketOf, agingDueRange, daysPastDue } from './aging';

describe('aging', () => {
  it('counts days past the due date', () => {
    expect(daysPastDue('2026-11-22', '2026-11-22')).toBe(0);
    expect(daysPastDue('2026-10-23', '2026-11-22')).toBe(30);
    expect(daysPastDue('2026-11-30', '2026-11-22')).toBe(-8);
  });

  it('puts each age in one bucket', () => {
    expect([-3, 0, 1, 30, 31, 60, 61, 90, 91, 400].map(agingBucketOf)).toEqual([
      'current',
      'current',
      '1-30',
      '1-30',
      '31-60',
      '31-60',
      '61-90',
      '61-90',
      '90+',
      '90+',
    ]);
  });

  it('turns a bucket into a due-date range that agrees with the bucket of each day', () => {
    expect(agingDueRange('31-60', '2026-11-22')).toEqual({ from: '2026-09-23', to: '2026-10-22' });
    expect(agingDueRange('current', '2026-11-22')).toEqual({ from: '2026-11-22', to: null });
    expect(agingDueRange('90+', '2026-11-22')).toEqual({ from: null, to: '2026-08-23' });
    for (let d = -5; d < 120; d++) {
      const due = new Date(Date.parse('2026-11-22T00:00:00Z') - d * 86_400_000).toISOString().slice(0, 10);
      const r = agingDueRange(agingBucketOf(d), '2026-11-22');
      expect(r.from === null || due >= r.from).toBe(true);
      expect(r.to === null || due <= r.to).toBe(true);
    }
  });
});
