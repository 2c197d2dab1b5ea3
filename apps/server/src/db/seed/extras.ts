import { AGENT_TYPE, BILLING_ITEM_IDS } from '@pos/domain';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import {
  type agentStores,
  type customerNotes,
  type salesHistory,
  type storeEmails,
  type taxCertificates,
  type AddressJson,
} from '../schema';
import { CUSTOMER_NOTE_TEXTS } from './reference-data';
import { AGENT_DEFS } from './demo-defs';
import {
  DAY,
  addDays,
  iso,
  lineTotal,
  monthStart,
  type DemoRun,
  type DemoExtras,
  type DemoMerchants,
  type DemoPeople,
} from './demo-run';

/** Store e-mails, customer notes, agent stores, sales history, tax certificates and referrals. */
export async function planExtras(
  run: DemoRun,
  { storeGens }: DemoMerchants,
  { agentId }: DemoPeople,
): Promise<DemoExtras> {
  const { rng, anchor, today } = run;
  // ── the rest: emails, notes, agent stores, sales history, tax certificates, referrals ─────────────
  const emailRows: PgInsertValue<typeof storeEmails>[] = [];
  const customerNoteRows: PgInsertValue<typeof customerNotes>[] = [];
  const agentStoreRows: PgInsertValue<typeof agentStores>[] = [];
  const salesHistoryRows: PgInsertValue<typeof salesHistory>[] = [];
  const taxCertRows: PgInsertValue<typeof taxCertificates>[] = [];
  for (const s of storeGens) {
    const slug = (s.values.doingBusinessAs as string).toLowerCase().replace(/[^a-z0-9]+/g, '');
    emailRows.push({ storeId: s.id, email: `${slug}.${s.id}@example.org`, kind: 'general', isPrimary: true });
    if (rng.chance(0.5))
      emailRows.push({ storeId: s.id, email: `billing.${s.id}@example.org`, kind: 'billing', isPrimary: false });
    if (s.status !== 'pending')
      for (
        let n = rng.weighted([
          [0, 45],
          [1, 35],
          [2, 20],
        ] as const);
        n > 0;
        n--
      )
        customerNoteRows.push({
          customerId: s.customer.id,
          storeId: s.id,
          noteType: 'order_note',
          body: rng.pick(CUSTOMER_NOTE_TEXTS),
          createdByEmail: `${rng.pick(['service', 'support', 'care', 'ar'])}@example.com`,
          createdAt: addDays(
            s.createdAt,
            rng.next() * Math.max(1, (today.getTime() - s.createdAt.getTime()) / DAY - 1),
          ),
        });
    if (s.customer.salesPerson.agentId)
      agentStoreRows.push({ agentId: s.customer.salesPerson.agentId, storeId: s.id, assignedAt: s.createdAt });
    if (s.hw)
      salesHistoryRows.push({
        salesPersonId: s.customer.salesPerson.id,
        customerId: s.customer.id,
        storeId: s.id,
        periodMonth: iso(monthStart(s.createdAt)),
        units: s.terminals,
        amountCents: lineTotal(
          s.hw.saleLines.filter(
            (l) => l.billingItemId !== BILLING_ITEM_IDS.TAX && l.billingItemId !== BILLING_ITEM_IDS.INSTALLMENT,
          ),
        ),
        currency: s.customer.currency,
      });
    if ((s.values.storeAddress as AddressJson).state === 'AZ' && rng.chance(0.6))
      taxCertRows.push({
        customerId: s.customer.id,
        storeId: s.id,
        state: 'AZ',
        certificateNumber: `TPT-${rng.digits(8)}`,
        expiresOn: iso(addDays(anchor, rng.int(60, 700))),
      });
  }
  const referralRows = AGENT_DEFS.filter((a) => a.type !== AGENT_TYPE.RDC).map((a, i) => ({
    refCode: `REF-${a.key.split('.')[0]!.toUpperCase()}${i + 1}`,
    name: `${a.name} referral`,
    agentId: agentId.get(a.key)!,
    discountCents: a.type === AGENT_TYPE.REFP ? 100_00 : 50_00,
    currency: a.country === 'CA' ? 'CAD' : 'USD',
  }));

  return { emailRows, customerNoteRows, agentStoreRows, salesHistoryRows, taxCertRows, referralRows };
}
