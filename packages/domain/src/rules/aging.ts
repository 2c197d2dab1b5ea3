import { addDays } from './license';

/*
 * AR aging (decision 128): an open invoice's age is counted in days past its due date on the report's as-of day,
 * and falls in one bucket. The server's SQL reads the buckets as due-date ranges (agingDueRange), so a bucket's
 * invoices are an index range of invoices_status_due_idx; the report's recompute test uses agingBucketOf.
 */

export const AGING_BUCKETS = ['current', '1-30', '31-60', '61-90', '90+'] as const;
export type AgingBucket = (typeof AGING_BUCKETS)[number];

export const AGING_BUCKET_LABELS: Readonly<Record<AgingBucket, string>> = {
  current: 'Current',
  '1-30': '1–30 days',
  '31-60': '31–60 days',
  '61-90': '61–90 days',
  '90+': 'Over 90 days',
};

/** Days past due of each bucket, both ends included (null: open-ended). Current = not yet past due (≤ 0). */
export const AGING_BUCKET_DAYS: Readonly<Record<AgingBucket, readonly [number | null, number | null]>> = {
  current: [null, 0],
  '1-30': [1, 30],
  '31-60': [31, 60],
  '61-90': [61, 90],
  '90+': [91, null],
};

const DAY_MS = 86_400_000;

/** Whole days from `dueOn` to `asOf` (YYYY-MM-DD): 0 on the due date, negative before it. */
export function daysPastDue(dueOn: string, asOf: string): number {
  return Math.round((Date.parse(`${asOf}T00:00:00Z`) - Date.parse(`${dueOn}T00:00:00Z`)) / DAY_MS);
}

export function agingBucketOf(days: number): AgingBucket {
  for (const b of AGING_BUCKETS) {
    const [lo, hi] = AGING_BUCKET_DAYS[b];
    if ((lo === null || days >= lo) && (hi === null || days <= hi)) return b;
  }
  return '90+';
}

/** The due dates of a bucket's invoices on `asOf`: due_on ≥ from and ≤ to (either may be open). */
export function agingDueRange(bucket: AgingBucket, asOf: string): { from: string | null; to: string | null } {
  const [lo, hi] = AGING_BUCKET_DAYS[bucket];
  return { from: hi === null ? null : addDays(asOf, -hi), to: lo === null ? null : addDays(asOf, -lo) };
}
