/** `node --import tsx bench/billing-alone.ts` — the billing-run bench alone (bench/billing.ts), printed, nothing written. */
import { benchBilling } from './billing';

const url = process.env.DATABASE_URL;
if (!url) throw new Error('set DATABASE_URL (PostgreSQL): the scratch database is made beside it');
const r = await benchBilling(url);
console.log(
  `billing run: ${r.run.perSecond} invoices/s (${r.run.seconds} s); raw ${r.raw.perSecond}/s; ratio ${r.ratio}; ` +
    `targets ≥ ${r.targetPerSecond}/s and ≥ ${r.targetRatio}×: ${r.meetsTarget ? 'met' : 'MISSED'}`,
);
