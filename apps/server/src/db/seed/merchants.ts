import { currencyForCountry, type MerchantCountryCode } from '@pos/domain';
import { customerValues, storeValues, type NewStore } from '../factories';
import type { AddressJson } from '../schema';
import { reserveIds } from './bulk';
import {
  DAY,
  addDays,
  taxBp,
  type CustomerGen,
  type DemoRun,
  type StoreGen,
  type StoreStatus,
  type DemoMerchants,
  type DemoPeople,
} from './demo-run';

/** Customers and their stores, decided in memory (written by writeDemoRows). */
export async function planMerchants(
  run: DemoRun,
  counts: { us: number; ca: number },
  { salesPeople }: DemoPeople,
): Promise<DemoMerchants> {
  const { db, rng, anchor, today } = run;
  // ── customers and stores (decided in memory first) ─────────────────────────────────────────────────
  const customerIds = await reserveIds(db, 'customers', counts.us + counts.ca);
  const customerGens: CustomerGen[] = [];
  for (let i = 0; i < counts.us + counts.ca; i++) {
    const country: MerchantCountryCode = i < counts.us ? 'US' : 'CA';
    const special = i === 0 ? ('T' as const) : i === 1 ? ('D' as const) : null;
    const candidates = salesPeople.filter((p) => (country === 'CA' ? p.country === 'CA' : p.country !== 'CA'));
    const sp = rng.pick(candidates);
    const createdAt = special ? addDays(anchor, -1400) : addDays(anchor, -rng.int(30, 1400) + rng.next());
    const taxDigits = String(410_000_000 + i * 37);
    const values = customerValues(
      rng,
      {
        country,
        salesPersonId: sp.id,
        accountManagerUsername: sp.manager,
        createdAt,
        updatedAt: createdAt,
        ...(special === 'T' ? { legalName: 'NRS QA Test Account LLC', firstName: 'Quinn', lastName: 'Tester' } : {}),
        ...(special === 'D' ? { legalName: 'NRS Demo Stores Inc', firstName: 'Dana', lastName: 'Demo' } : {}),
      },
      { key: `d${i + 1}`, taxDigits },
    );
    customerGens.push({
      id: customerIds[i]!,
      values: { ...values, id: customerIds[i]! },
      country,
      currency: currencyForCountry(country),
      createdAt,
      salesPerson: { id: sp.id, name: sp.name, manager: sp.manager, agentId: sp.agentId },
      special,
      stores: [],
      instrumentId: 0,
      instrumentKind: 'card',
    });
  }

  const storeSpecs: {
    customer: CustomerGen;
    values: NewStore;
    status: StoreStatus;
    createdAt: Date;
    closedAt: Date | null;
    terminals: number;
  }[] = [];
  for (const c of customerGens) {
    const count =
      c.special === 'T'
        ? 5
        : c.special === 'D'
          ? 4
          : rng.weighted([
              [1, 45],
              [2, 30],
              [3, 15],
              [4, 10],
            ] as const);
    // Most multi-store customers are a small chain: one name and kind of business, several addresses.
    const chain = count > 1 && rng.chance(0.6);
    let first: NewStore | undefined;
    for (let k = 0; k < count; k++) {
      const base = storeValues(rng, { id: c.id, country: c.country }, {});
      first ??= base;
      const dba =
        c.special === 'T'
          ? `QA Lane ${k + 1}`
          : c.special === 'D'
            ? `Demo Store ${k + 1}`
            : chain
              ? first.doingBusinessAs
              : base.doingBusinessAs;
      const kindOfBusiness = chain ? first.kindOfBusiness : base.kindOfBusiness;
      let createdAt =
        k === 0
          ? addDays(c.createdAt, rng.int(0, 20) + rng.next())
          : addDays(c.createdAt, rng.next() * ((today.getTime() - c.createdAt.getTime()) / DAY - 1));
      let status: StoreStatus = 'active';
      let closedAt: Date | null = null;
      if (!c.special) {
        const roll = rng.next();
        if (roll < 0.06) {
          status = 'pending';
          createdAt = addDays(today, -rng.int(1, 20) - rng.next());
        } else if (roll < 0.1 && createdAt < addDays(today, -90)) {
          status = 'closed';
          closedAt = addDays(createdAt, 60 + rng.next() * ((today.getTime() - createdAt.getTime()) / DAY - 70));
        } else if (roll < 0.115) {
          status = 'suspended';
        }
      }
      const acceptsCards = rng.chance(0.8);
      storeSpecs.push({
        customer: c,
        status,
        createdAt,
        closedAt,
        terminals: c.special
          ? 1
          : rng.weighted([
              [1, 55],
              [2, 30],
              [3, 15],
            ] as const),
        values: {
          ...base,
          doingBusinessAs: dba,
          kindOfBusiness,
          storeName: `${dba} - ${(base.storeAddress as AddressJson).address1.replace(/^\d+\s+/, '')}`,
          salesRep: c.salesPerson.name,
          salesPersonId: c.salesPerson.id,
          accountManagerUsername: c.values.accountManagerUsername ?? null,
          storeType: c.special ?? 'R',
          status,
          mid: acceptsCards && c.country === 'US' ? `MID` : null,
          createdAt,
          updatedAt: closedAt ?? createdAt,
        },
      });
    }
  }
  const storeIds = await reserveIds(db, 'stores', storeSpecs.length);
  const orderIdsForStores = await reserveIds(db, 'orders', storeSpecs.length);
  const storeGens: StoreGen[] = storeSpecs.map((s, i) => {
    const address = s.values.storeAddress as AddressJson;
    const g: StoreGen = {
      id: storeIds[i]!,
      customer: s.customer,
      values: {
        ...s.values,
        id: storeIds[i]!,
        mid: s.values.mid ? `8${String(storeIds[i]!).padStart(11, '0')}` : null,
      },
      status: s.status,
      createdAt: s.createdAt,
      closedAt: s.closedAt,
      terminals: s.terminals,
      petro: s.values.kindOfBusiness === 'Gas station',
      taxBp: taxBp(s.customer.country, address.state),
      orderId: orderIdsForStores[i]!,
      hw: null,
      svc: null,
      features: [],
      bundleId: null,
    };
    s.customer.stores.push(g);
    return g;
  });

  return { customerGens, storeGens };
}
