import { BILLING_ITEM_IDS, OTHER_IDS } from '@pos/domain';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import { type returns, type terminals } from '../schema';
import { DOMAIN_DATA } from './reference-data';
import { reserveIds } from './bulk';
import {
  DAY,
  addDays,
  itemPrice,
  productPrice,
  type DemoRun,
  type StoreGen,
  type DemoMerchants,
  type DemoReference,
} from './demo-run';

/** Terminals of every store (retired ones for closed stores and replacements) and returns of retired units. */
export async function planTerminals(
  run: DemoRun,
  { storeGens }: DemoMerchants,
  { retireReasons }: DemoReference,
): Promise<{ terminalRows: PgInsertValue<typeof terminals>[]; returnRows: PgInsertValue<typeof returns>[] }> {
  const { db, rng, today } = run;
  // ── terminals ────────────────────────────────────────────────────────────────────────────────────
  const terminalSpecs: { s: StoreGen; n: number; replacement: boolean }[] = [];
  for (const s of storeGens) {
    for (let n = 0; n < s.terminals; n++) terminalSpecs.push({ s, n, replacement: false });
    if (s.status === 'active' && rng.chance(0.05)) terminalSpecs.push({ s, n: s.terminals, replacement: true });
  }
  const terminalIds = await reserveIds(db, 'terminals', terminalSpecs.length);
  const retiredElmer: { s: StoreGen; elmerId: string }[] = [];
  const terminalRows = terminalSpecs.map(({ s, n, replacement }, i) => {
    const id = terminalIds[i]!;
    const elmerId = String(3_000_000 + id * 7 + (id % 7));
    const product = s.petro && n === 0 ? OTHER_IDS.PETRO_PRODUCT_ID : OTHER_IDS.TERMINAL_PRODUCT_ID;
    const installedAt = s.status === 'pending' ? null : addDays(s.createdAt, -0.2);
    let status: 'active' | 'pending' | 'retired' = s.status === 'pending' ? 'pending' : 'active';
    let retiredAt: Date | null = null;
    let reason: string | null = null;
    if (s.status === 'closed') {
      status = 'retired';
      retiredAt = s.closedAt;
      reason = 'store_closed';
    } else if (replacement) {
      // The old unit a replacement took over from.
      status = 'retired';
      retiredAt = addDays(s.createdAt, rng.next() * Math.max(1, (today.getTime() - s.createdAt.getTime()) / DAY - 1));
      reason = rng.pick(['defective', 'replaced', 'upgraded', 'lost_stolen']);
    }
    if (status === 'retired') retiredElmer.push({ s, elmerId });
    return {
      id,
      elmerId,
      serialNumber: `${product === OTHER_IDS.PETRO_PRODUCT_ID ? 'PT' : 'NT'}${String(s.createdAt.getUTCFullYear()).slice(2)}${String(id).padStart(7, '0')}`,
      posCcProcessorSerialNumber: s.values.mid ? `PAX${rng.digits(9)}` : null,
      customerId: s.customer.id,
      storeId: s.id,
      productId: product,
      orderId: s.orderId,
      planId: s.hw?.id ?? null,
      underTransfer: status === 'active' && rng.chance(0.03),
      status,
      installedAt,
      retiredAt,
      retireReasonId: reason ? retireReasons.get(reason)! : null,
      createdAt: addDays(s.createdAt, -1),
      updatedAt: retiredAt ?? s.createdAt,
    };
  });

  const returnRows = rng.sample(retiredElmer, Math.min(10, retiredElmer.length)).map(({ s, elmerId }, i) => {
    const status = (['requested', 'received', 'refunded', 'rejected'] as const)[i % 4];
    const restocking = itemPrice(BILLING_ITEM_IDS.RESTOCKING_FEE, s.customer.currency);
    return {
      customerId: s.customer.id,
      storeId: s.id,
      orderId: s.orderId,
      terminalElmerId: elmerId,
      reason: rng.pick(DOMAIN_DATA.return_reason!)[1],
      status,
      restockingFeeCents: restocking,
      refundCents:
        status === 'refunded'
          ? Math.max(0, productPrice(OTHER_IDS.TERMINAL_PRODUCT_ID, s.customer.currency) - restocking)
          : 0,
      currency: s.customer.currency,
      createdByEmail: 'support@example.com',
      createdAt: addDays(today, -rng.int(2, 60)),
    };
  });

  return { terminalRows, returnRows };
}
