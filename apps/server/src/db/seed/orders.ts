import {
  BILLING_ITEM_IDS,
  ORDER_STATUS,
  ORDER_STATUS_CODES,
  OTHER_IDS,
  currencyForCountry,
  type MerchantCountryCode,
  type OrderFlow,
  type OrderStatusCode,
} from '@pos/domain';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import {
  PLAN_KIND_DEFAULTS,
  buildOrderDocument,
  customerValues,
  storeValues,
  type NewCustomer,
  type NewStore,
  type OrderPlanInput,
} from '../factories';
import {
  type agentOrders,
  type contracts,
  type orderNotes,
  type orderPromotions,
  type orderStatusHistory,
  type orders,
} from '../schema';
import { DEMO_STAFF, ORDER_NOTE_TEXTS, STATUS_ACTOR, STATUS_PATHS } from './reference-data';
import { reserveIds } from './bulk';
import { PROMOS } from './demo-defs';
import type { DemoMerchants, DemoOrders, DemoPeople, DemoReference } from './demo-run';
import {
  DAY,
  IN_PROGRESS,
  addDays,
  iso,
  itemName,
  itemPrice,
  lineTotal,
  minDate,
  productPrice,
  type CustomerGen,
  type DemoRun,
  type StoreGen,
} from './demo-run';

/** Orders: one per store (complete, or in progress for pending stores), add-ons and prospects; their history, notes, contracts, agents and promotions. */
export async function planOrders(
  run: DemoRun,
  { storeGens }: DemoMerchants,
  { agentId }: DemoPeople,
  { reasonsByStatus }: DemoReference,
): Promise<DemoOrders> {
  const { db, rng, anchor, today } = run;
  // ── orders: one per store (complete, or in progress for pending stores) + add-ons + prospects ────
  const prospectCount = 45;
  const addOnCount = 30;
  const extraOrderIds = await reserveIds(db, 'orders', prospectCount + addOnCount);
  const promoIds = await reserveIds(db, 'promotions', PROMOS.length);
  const promoRows = PROMOS.map((p, i) => ({
    id: promoIds[i]!,
    code: p.code,
    name: p.name,
    type: p.type,
    method: p.method,
    amountCents: p.method === 'A' ? p.value : null,
    percent: p.method === 'P' ? String(p.value) : null,
    customerType: p.customerType,
    currency: p.currency,
    billingItemId: p.billingItemId,
    startsOn: iso(addDays(anchor, p.startsIn)),
    expiresOn: p.expiresIn === null ? null : iso(addDays(anchor, p.expiresIn)),
    active: p.expiresIn === null || p.expiresIn > 0,
  }));

  interface OrderSpec {
    id: number;
    status: OrderStatusCode;
    flow: OrderFlow;
    orderType: 'P' | 'N';
    orderDate: Date;
    end: Date;
    customer: CustomerGen | null;
    store: StoreGen | null;
    prospect: { customer: NewCustomer; store: NewStore } | null;
    agentId: number | null;
    createdBy: string;
    terminals: number;
    totalSale: number;
  }
  const orderSpecs: OrderSpec[] = [];
  const salesStaff = (flow: OrderFlow) => (flow === 'RAM' ? 'ram' : rng.pick(['is', 'mss', 'rss']));
  for (const s of storeGens) {
    const flow: OrderFlow = rng.chance(0.3) ? 'RAM' : 'AR';
    let status: OrderStatusCode = ORDER_STATUS.COMPLETE;
    if (s.status === 'pending')
      status = s.petro && rng.chance(0.5) ? ORDER_STATUS.PETRO_APPROVAL : rng.pick(IN_PROGRESS);
    const orderDate =
      s.status === 'pending'
        ? addDays(s.createdAt, -rng.int(0, 3))
        : addDays(s.createdAt, -rng.int(7, 30) - rng.next());
    const agent = s.customer.salesPerson.agentId;
    orderSpecs.push({
      id: s.orderId,
      status,
      flow,
      orderType: 'P',
      orderDate,
      end: s.status === 'pending' ? today : s.createdAt,
      customer: s.customer,
      store: s,
      prospect: null,
      agentId: agent,
      createdBy: agent ? 'distributor' : salesStaff(flow),
      terminals: s.terminals,
      totalSale: s.hw ? lineTotal(s.hw.saleLines.filter((l) => l.billingItemId !== BILLING_ITEM_IDS.INSTALLMENT)) : 0,
    });
  }
  const liveStores = storeGens.filter((s) => s.status === 'active' && !s.customer.special);
  for (let i = 0; i < addOnCount; i++) {
    const s = rng.pick(liveStores);
    const flow: OrderFlow = rng.chance(0.4) ? 'RAM' : 'AR';
    const orderDate = addDays(today, -rng.int(2, 120) - rng.next());
    orderSpecs.push({
      id: extraOrderIds[i]!,
      status: ORDER_STATUS_CODES[i % ORDER_STATUS_CODES.length]!,
      flow,
      orderType: rng.chance(0.5) ? 'N' : 'P',
      orderDate,
      end: minDate(today, addDays(orderDate, rng.int(3, 40))),
      customer: s.customer,
      store: s,
      prospect: null,
      agentId: s.customer.salesPerson.agentId,
      createdBy: s.customer.salesPerson.agentId ? 'distributor' : salesStaff(flow),
      terminals: 1,
      totalSale: productPrice(OTHER_IDS.TERMINAL_PRODUCT_ID, s.customer.currency),
    });
  }
  for (let i = 0; i < prospectCount; i++) {
    const country: MerchantCountryCode = rng.chance(0.8) ? 'US' : 'CA';
    const customer = customerValues(rng, { country }, { key: `p${i + 1}`, taxDigits: String(470_000_000 + i * 41) });
    const store = storeValues(rng, { id: 0, country }, {});
    const viaAgent = rng.chance(0.35);
    const flow: OrderFlow = rng.chance(0.3) ? 'RAM' : 'AR';
    const orderDate = addDays(today, -rng.int(1, 90) - rng.next());
    const terminalsWanted = rng.int(1, 3);
    orderSpecs.push({
      id: extraOrderIds[addOnCount + i]!,
      status: ORDER_STATUS_CODES[(i + 7) % ORDER_STATUS_CODES.length]!,
      flow,
      orderType: 'P',
      orderDate,
      end: minDate(today, addDays(orderDate, rng.int(2, 30))),
      customer: null,
      store: null,
      prospect: { customer, store },
      agentId: viaAgent
        ? rng.pick([agentId.get('demo')!, agentId.get('gulfcoast')!, agentId.get('greatlakes')!])
        : null,
      createdBy: viaAgent ? 'distributor' : salesStaff(flow),
      terminals: terminalsWanted,
      totalSale: terminalsWanted * productPrice(OTHER_IDS.TERMINAL_PRODUCT_ID, currencyForCountry(country)),
    });
  }

  const orderRows: PgInsertValue<typeof orders>[] = [];
  const historyRows: PgInsertValue<typeof orderStatusHistory>[] = [];
  const noteRows: PgInsertValue<typeof orderNotes>[] = [];
  const contractRows: PgInsertValue<typeof contracts>[] = [];
  const agentOrderRows: PgInsertValue<typeof agentOrders>[] = [];
  const orderPromoRows: PgInsertValue<typeof orderPromotions>[] = [];
  const staffName = new Map<string, string>(DEMO_STAFF.map((s) => [s.username, s.name]));
  for (const o of orderSpecs) {
    const path = STATUS_PATHS[o.status];
    const span = Math.max(0.2, (o.end.getTime() - o.orderDate.getTime()) / DAY);
    const times = path.map((_, k) =>
      k === 0 ? o.orderDate : addDays(o.orderDate, (span * k) / Math.max(1, path.length - 1) - rng.next() * 0.1),
    );
    const c = o.customer
      ? { ...o.customer.values, id: o.customer.id }
      : o.prospect
        ? { ...o.prospect.customer, id: undefined }
        : null;
    const st = o.store ? o.store.values : o.prospect ? { ...o.prospect.store, id: undefined } : null;
    const cur = currencyForCountry((c?.country as string | undefined) ?? 'US');
    const hwPlan: OrderPlanInput | undefined = o.store?.hw
      ? {
          paymentPlanId: o.store.hw.id,
          initialPaymentCents: o.store.hw.initial,
          recurringCents: o.store.hw.recurring,
          term: o.store.hw.upfront ? 0 : 12,
          interval: o.store.hw.upfront ? 0 : 1,
        }
      : {
          paymentPlanId: OTHER_IDS.UPFRONT_PAYMENT_PLAN_ID,
          initialPaymentCents: o.totalSale,
          recurringCents: 0,
          term: 0,
          interval: 0,
        };
    const moPlan: OrderPlanInput | undefined = o.store?.svc
      ? {
          paymentPlanId: o.store.svc.id,
          initialPaymentCents: 0,
          recurringCents: lineTotal(o.store.svc.recurringLines),
          term: PLAN_KIND_DEFAULTS[o.store.svc.kind].term,
          interval: PLAN_KIND_DEFAULTS[o.store.svc.kind].interval,
        }
      : {
          paymentPlanId: OTHER_IDS.MONTHLY_PLAN_ID,
          initialPaymentCents: 0,
          recurringCents: itemPrice(BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, cur),
          term: 1,
          interval: 1,
        };
    const createdByEmail = `${o.createdBy}@example.com`;
    // The product's one format (decision 156): UO-<order day>-<id>.
    const unifiedOrderId = `UO-${o.orderDate.toISOString().slice(0, 10).replaceAll('-', '')}-${o.id}`;
    const document = buildOrderDocument({
      orderInfoId: o.id,
      unifiedOrderId,
      flow: o.flow,
      orderType: o.orderType,
      orderDate: o.orderDate,
      salesRep: o.customer?.salesPerson.name ?? null,
      customer: c,
      store: st,
      noOfTerminals: o.terminals,
      totalSaleCents: o.totalSale,
      hardwarePlan: hwPlan,
      monthlyPlan: moPlan,
      user: { name: staffName.get(o.createdBy) ?? o.createdBy, email: createdByEmail },
      billingItems: (o.store?.features ?? []).map((f) => ({
        billingItemId: f,
        name: itemName.get(f),
        price: (itemPrice(f, cur) / 100).toFixed(2),
      })),
      bundles: o.store?.bundleId ? [{ bundleId: o.store.bundleId }] : [],
      storeInfo: {
        currentPos: rng.pick(['None', 'Cash register', 'Square', 'Clover', 'Other POS']),
        internetConnectionType: rng.pick(['Cable', 'DSL', 'Fiber', '4G/LTE']),
        acceptsCreditCards: st?.mid ? 'Yes' : 'No',
      },
    });
    const reached = (code: OrderStatusCode) => {
      const k = path.indexOf(code);
      return k >= 0 ? times[k]! : null;
    };
    const last = times[times.length - 1]!;
    orderRows.push({
      id: o.id,
      unifiedOrderId,
      document,
      status: o.status,
      flow: o.flow,
      orderType: o.orderType,
      salesRep: o.customer?.salesPerson.name ?? null,
      agentId: o.agentId,
      customerId: o.customer?.id ?? null,
      storeId: o.store?.id ?? null,
      createdByEmail,
      fedTaxId: (c?.federalTaxId as string | undefined) ?? null,
      legalName: (c?.legalName as string | undefined) ?? null,
      dbaName: (st?.doingBusinessAs as string | undefined) ?? null,
      country: (c?.country as string | undefined) ?? 'US',
      currency: cur,
      totalSaleCents: o.totalSale,
      orderDate: o.orderDate,
      submittedAt: times[1] ?? null,
      onboardedAt: reached(ORDER_STATUS.PENDING_ONBOARDING) ?? reached(ORDER_STATUS.INSTALLATION),
      completedAt: reached(ORDER_STATUS.COMPLETE),
      createdAt: o.orderDate,
      updatedAt: last,
      version: path.length,
    });
    path.forEach((to, k) => {
      const reasons = reasonsByStatus.get(to) ?? [];
      const final = k === path.length - 1;
      const withReason =
        reasons.length > 0 && (final ? ['2', '3', '141', '142'].includes(to) || rng.chance(0.4) : rng.chance(0.1));
      const reason = withReason ? rng.pick(reasons) : null;
      historyRows.push({
        orderId: o.id,
        fromStatus: k === 0 ? null : path[k - 1]!,
        toStatus: to,
        statusReasonId: reason?.id ?? null,
        note: reason?.reason ?? null,
        changedByEmail: k === 0 ? createdByEmail : `${STATUS_ACTOR[to]}@example.com`,
        changedAt: times[k]!,
      });
      if (reason)
        noteRows.push({
          orderId: o.id,
          noteType: 'status_reason',
          statusReasonId: reason.id,
          body: reason.reason,
          createdByEmail: `${STATUS_ACTOR[to]}@example.com`,
          createdAt: times[k]!,
        });
    });
    for (
      let n = rng.weighted([
        [0, 40],
        [1, 35],
        [2, 20],
        [3, 5],
      ] as const);
      n > 0;
      n--
    )
      noteRows.push({
        orderId: o.id,
        noteType: 'order_note',
        body: rng.pick(ORDER_NOTE_TEXTS),
        createdByEmail: rng.pick([createdByEmail, 'service@example.com', 'ar@example.com']),
        createdAt: addDays(o.orderDate, rng.next() * span),
      });
    const contractAt = reached(ORDER_STATUS.PENDING_CONTRACT_SIGN);
    if (contractAt) {
      const signer = c ? `${c.firstName} ${c.lastName}` : 'Merchant';
      const signedAt = times[path.indexOf(ORDER_STATUS.PENDING_CONTRACT_SIGN) + 1];
      const regenerated = reached(ORDER_STATUS.AR_CONTRACT_REGENERATED);
      contractRows.push({
        orderId: o.id,
        versionNo: 1,
        status: regenerated ? 'superseded' : signedAt ? 'signed' : 'sent',
        signedByName: signedAt && !regenerated ? signer : null,
        signedAt: signedAt && !regenerated ? signedAt : null,
        signedFromIp: signedAt && !regenerated ? `203.0.113.${rng.int(1, 254)}` : null,
        createdAt: contractAt,
        updatedAt: signedAt ?? contractAt,
      });
      if (regenerated)
        contractRows.push({
          orderId: o.id,
          versionNo: 2,
          status: 'generated',
          createdAt: regenerated,
          updatedAt: regenerated,
        });
    }
    if (o.agentId)
      agentOrderRows.push({
        agentId: o.agentId,
        orderId: o.id,
        assignedByEmail: o.createdBy === 'distributor' ? createdByEmail : 'admin@example.com',
        assignedAt: o.orderDate,
      });
    if (o.status === ORDER_STATUS.COMPLETE && o.customer && rng.chance(0.12)) {
      const options = promoRows.filter((p) => p.currency === cur && p.type === 'H');
      const p = rng.pick(options);
      const amount = p.method === 'A' ? p.amountCents! : Math.round((o.totalSale * Number(p.percent)) / 100);
      orderPromoRows.push({
        orderId: o.id,
        customerId: o.customer.id,
        storeId: o.store?.id ?? null,
        promotionId: p.id,
        amountCents: Math.min(amount, o.totalSale),
        currency: cur,
        appliedAt: o.orderDate,
      });
    }
  }

  return { promoRows, orderRows, historyRows, noteRows, contractRows, agentOrderRows, orderPromoRows };
}
