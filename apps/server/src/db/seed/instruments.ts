import type { PgInsertValue } from 'drizzle-orm/pg-core';
import type { paymentInstruments } from '../schema';
import { BANKS } from './reference-data';
import { reserveIds } from './bulk';
import { type DemoRun, type DemoMerchants } from './demo-run';

/** Payment instruments: each customer's default card or bank account, some with an older inactive card. */
export async function planInstruments(
  run: DemoRun,
  { customerGens }: DemoMerchants,
): Promise<{ instrumentRows: PgInsertValue<typeof paymentInstruments>[] }> {
  const { db, rng, today } = run;
  // ── payment instruments ──────────────────────────────────────────────────────────────────────────
  const usBanks = BANKS.filter((b) => b.country === 'US');
  const caBanks = BANKS.filter((b) => b.country === 'CA');
  const instrumentPlan = customerGens.map((c) => ({ c, second: rng.chance(0.1) }));
  const instrumentIds = await reserveIds(
    db,
    'payment_instruments',
    instrumentPlan.reduce((n, p) => n + (p.second ? 2 : 1), 0),
  );
  let nextInstrument = 0;
  const instrumentRows: PgInsertValue<typeof paymentInstruments>[] = [];
  for (const { c, second } of instrumentPlan) {
    const bank = c.country === 'CA' ? rng.chance(0.7) : rng.chance(0.25);
    const holder = `${c.values.firstName} ${c.values.lastName}`;
    const make = (active: boolean, asBank: boolean): PgInsertValue<typeof paymentInstruments> => {
      const id = instrumentIds[nextInstrument++]!;
      const last4 = rng.digits(4);
      if (asBank) {
        const b = rng.pick(c.country === 'CA' ? caBanks : usBanks);
        return {
          id,
          customerId: c.id,
          kind: 'bank',
          nameOnAccount: c.values.legalName,
          bankName: b.name,
          routingNumber: c.country === 'CA' ? rng.digits(5) : b.routingNumber!,
          institutionNumber: b.institutionNumber ?? null,
          // Demo rows hold no account number: the placeholder is not a ciphertext (decision 016).
          accountNumberEncrypted: `demo:${last4}`,
          accountLast4: last4,
          accountType: rng.chance(0.85) ? 'checking' : 'savings',
          isDefault: active,
          status: active ? 'active' : 'inactive',
        };
      }
      return {
        id,
        customerId: c.id,
        kind: 'card',
        nameOnAccount: holder,
        cardBrand: rng.weighted([
          ['visa', 50],
          ['mastercard', 30],
          ['amex', 12],
          ['discover', 8],
        ] as const),
        cardLast4: last4,
        cardExpMonth: rng.int(1, 12),
        cardExpYear: today.getUTCFullYear() + (active ? rng.int(1, 5) : -1),
        processorReference: `pm_demo_${c.id}_${id}`,
        isDefault: active,
        status: active ? 'active' : 'inactive',
      };
    };
    const row = make(true, bank);
    c.instrumentId = row.id as number;
    c.instrumentKind = bank ? 'bank' : 'card';
    instrumentRows.push(row);
    if (second) instrumentRows.push(make(false, false));
  }

  return { instrumentRows };
}
