import { BILLING_ITEM_IDS, DECLINE_KIND, nextRetryOn, type DeclineCode } from '@pos/domain';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import { type invoiceDunning, type invoiceLines, type invoices, type transactions } from '../schema';
import { CHARGEBACK_REASONS, FAILURE_REASON_CODES, FAILURE_REASONS } from './reference-data';
import { reserveIds } from './bulk';
import type { DemoBilling, DemoPlans } from './demo-run';
import {
  addDays,
  iso,
  itemName,
  lineTotal,
  monthKey,
  monthStart,
  tax,
  type CustomerGen,
  type DemoRun,
  type Line,
  type StoreGen,
} from './demo-run';

/** Twelve months of invoices with their lines, charge transactions and receipts. */
export async function planBilling(run: DemoRun, { billed }: DemoPlans): Promise<DemoBilling> {
  const { db, rng, anchor, today, windowStart } = run;
  // ── invoices, lines, transactions, receipts ─────────────────────────────────────────────────────
  interface InvoiceSpec {
    s: StoreGen;
    planId: number;
    type: 'S' | 'M' | 'I';
    issued: Date;
    lines: Line[];
  }
  const invoiceSpecs: InvoiceSpec[] = [];
  for (const s of billed) {
    const start = s.createdAt;
    const endKey = s.closedAt ? monthKey(s.closedAt) : monthKey(anchor);
    if (monthKey(start) >= monthKey(windowStart))
      invoiceSpecs.push({ s, planId: s.hw!.id, type: 'S', issued: start, lines: s.hw!.saleLines });
    for (let m = monthStart(windowStart); monthKey(m) <= endKey; m = monthStart(m, 1)) {
      const sinceStart = monthKey(m) - monthKey(start);
      if (sinceStart < 0) continue;
      if (!s.hw!.upfront && sinceStart >= 1 && sinceStart <= 12) {
        const principal = Math.round(s.hw!.financed / 12);
        const interest = s.hw!.recurring - principal;
        invoiceSpecs.push({
          s,
          planId: s.hw!.id,
          type: 'I',
          issued: m,
          lines: [
            {
              billingItemId: BILLING_ITEM_IDS.INSTALLMENT,
              description: `Installment ${sinceStart} of 12`,
              quantity: 1,
              unitCents: principal,
            },
            ...(interest > 0
              ? [
                  {
                    billingItemId: BILLING_ITEM_IDS.INTEREST,
                    description: itemName.get(BILLING_ITEM_IDS.INTEREST)!,
                    quantity: 1,
                    unitCents: interest,
                  },
                ]
              : []),
          ],
        });
      }
      const due = s.svc!.kind === 'monthly' || sinceStart % 12 === 0;
      if (!due) continue;
      // Left for the billing run (decision 113): this month's service invoice is not written.
      if (s.svc!.dueNow && monthKey(m) === monthKey(anchor) && sinceStart > 0) continue;
      const issued = sinceStart === 0 ? start : m;
      const lines = [...s.svc!.recurringLines];
      const t = tax(lineTotal(lines), s.taxBp);
      if (t > 0)
        lines.push({ billingItemId: BILLING_ITEM_IDS.TAX, description: 'Sales tax', quantity: 1, unitCents: t });
      invoiceSpecs.push({ s, planId: s.svc!.id, type: 'M', issued, lines });
    }
  }
  invoiceSpecs.sort((a, b) => a.issued.getTime() - b.issued.getTime() || a.s.id - b.s.id);
  const invoiceIds = await reserveIds(db, 'invoices', invoiceSpecs.length);

  const invoiceRows: PgInsertValue<typeof invoices>[] = [];
  const lineRows: PgInsertValue<typeof invoiceLines>[] = [];
  const txRows: PgInsertValue<typeof transactions>[] = [];
  const receiptSpecs: {
    customer: CustomerGen;
    amount: number;
    invoiceId: number | null;
    received: Date;
    method: string;
  }[] = [];
  const unpaidOld: { id: number; s: StoreGen; total: number; issued: Date }[] = [];
  const failures: { invoiceId: number; s: StoreGen; rows: PgInsertValue<typeof transactions>[] }[] = [];
  const paidInvoices: { id: number; s: StoreGen; total: number; issued: Date }[] = [];
  invoiceSpecs.forEach((spec, i) => {
    const id = invoiceIds[i]!;
    const { s } = spec;
    const cur = s.customer.currency;
    const total = lineTotal(spec.lines);
    const taxCents = spec.lines
      .filter((l) => l.billingItemId === BILLING_ITEM_IDS.TAX)
      .reduce((n, l) => n + l.unitCents, 0);
    const dueOn = addDays(spec.issued, spec.type === 'S' ? 0 : 10);
    const current = monthKey(spec.issued) === monthKey(anchor) && spec.type !== 'S';
    const lastMonths = monthKey(anchor) - monthKey(spec.issued) <= 2;
    let outcome: 'paid' | 'retried' | 'failed' | 'check' | 'reversed' | 'chargeback' | 'void' | 'open';
    if (current) outcome = 'open';
    else if (spec.type === 'S') outcome = rng.chance(0.04) ? 'check' : 'paid';
    else if (s.status === 'suspended' && lastMonths) outcome = 'failed';
    else if (s.closedAt && monthKey(spec.issued) === monthKey(s.closedAt)) outcome = 'failed';
    else
      outcome = rng.weighted([
        ['paid', 880],
        ['retried', 40],
        ['failed', 35],
        ['check', 25],
        ['reversed', 10],
        ['chargeback', 7],
        ['void', 3],
      ] as const);
    const paid = outcome === 'paid' || outcome === 'retried' || outcome === 'check' || outcome === 'void';
    const at = (d: Date, hours: number) => new Date(d.getTime() + hours * 3_600_000);
    invoiceRows.push({
      id,
      // The product's one format (decision 156): INV-<year>-<7 digits>.
      invoiceNumber: `INV-${iso(spec.issued).slice(0, 4)}-${String(id).padStart(7, '0')}`,
      customerId: s.customer.id,
      storeId: s.id,
      planId: spec.planId,
      status: outcome === 'reversed' ? 'R' : paid ? 'P' : 'N',
      type: spec.type,
      periodStart: spec.type === 'S' ? null : iso(spec.issued),
      periodEnd:
        spec.type === 'S'
          ? null
          : iso(addDays(monthStart(spec.issued, spec.type === 'M' && s.svc!.kind === 'yearly' ? 12 : 1), -1)),
      issuedOn: iso(spec.issued),
      dueOn: iso(dueOn),
      totalCents: total,
      taxCents,
      paidCents: paid ? total : 0,
      currency: cur,
      reversedAt: outcome === 'reversed' ? at(dueOn, 24 * 5) : null,
      // A charge that failed and was retried is written here as reprocessed (R) at once; the product writes it F
      // first, which stamps the invoice into the failed-payment cohort (decision 137) — stamp it the same way, or the
      // recovery rate of the demo data reads 0 % (issue 30).
      firstFailedAt: outcome === 'retried' ? at(dueOn, 9) : null,
      createdAt: at(spec.issued, 2),
      updatedAt: at(dueOn, 10),
    });
    for (const l of spec.lines)
      lineRows.push({
        invoiceId: id,
        billingItemId: l.billingItemId,
        description: l.description,
        quantity: l.quantity,
        unitCents: l.unitCents,
        amountCents: l.quantity * l.unitCents,
      });
    if (paid) paidInvoices.push({ id, s, total, issued: spec.issued });
    if (outcome === 'failed' && !current) unpaidOld.push({ id, s, total, issued: spec.issued });

    const base = {
      customerId: s.customer.id,
      storeId: s.id,
      invoiceId: id,
      paymentInstrumentId: s.customer.instrumentId,
      amountCents: total,
      currency: cur,
    };
    const ref = () => `${s.customer.instrumentKind === 'card' ? 'ch' : 'ach'}_${rng.digits(16)}`;
    const tx = (status: string, hours: number, extra: Partial<PgInsertValue<typeof transactions>> = {}) => {
      const attemptedAt = at(dueOn, hours);
      txRows.push({
        ...base,
        kind: 'charge',
        status,
        gatewayReference: ref(),
        attemptedAt,
        settledAt: status === 'S' || status === 'B' || status === 'C' ? at(attemptedAt, 26) : null,
        createdAt: attemptedAt,
        updatedAt: attemptedAt,
        ...extra,
      });
    };
    switch (outcome) {
      case 'paid':
        tx('S', 9);
        break;
      case 'retried':
        tx('R', 9, { failureReason: rng.pick(FAILURE_REASONS) });
        tx('S', 9 + 24 * rng.int(2, 6));
        break;
      case 'failed': {
        const failed = (hours: number) => {
          const reason = rng.pick(FAILURE_REASONS);
          tx('F', hours, { failureReason: reason, declineCode: FAILURE_REASON_CODES[reason] });
        };
        const first = txRows.length;
        failed(9);
        if (rng.chance(0.5)) failed(9 + 24 * rng.int(3, 7));
        failures.push({ invoiceId: id, s, rows: txRows.slice(first) });
        break;
      }
      case 'check':
        receiptSpecs.push({
          customer: s.customer,
          amount: total,
          invoiceId: id,
          received: addDays(dueOn, rng.int(0, 5)),
          method: rng.weighted([
            ['check', 6],
            ['wire', 2],
            ['cash', 1],
            ['ach', 1],
          ] as const),
        });
        break;
      case 'reversed':
        tx('C', 9, { failureReason: 'Invoice reversed; payment refunded' });
        break;
      case 'chargeback':
        tx('S', 9);
        tx('B', 9 + 24 * rng.int(20, 45), { kind: 'chargeback', failureReason: rng.pick(CHARGEBACK_REASONS) });
        break;
      case 'void':
        tx('V', 8);
        tx('S', 9);
        break;
      case 'open':
        if (rng.chance(0.5)) tx('P', Math.min(9, (today.getTime() - dueOn.getTime()) / 3_600_000 - 1));
        break;
    }
  });
  // Pending transactions must not be dated after "today".
  for (const t of txRows) {
    if ((t.attemptedAt as Date) > today) t.attemptedAt = t.createdAt = t.updatedAt = addDays(today, -0.1);
    if (t.settledAt && (t.settledAt as Date) > today) t.settledAt = addDays(today, -0.05);
  }

  // Receipts not yet applied (for the apply-receipt screen): customers with an unpaid invoice.
  for (const u of rng.sample(unpaidOld, Math.min(15, unpaidOld.length)))
    receiptSpecs.push({
      customer: u.s.customer,
      amount: rng.chance(0.7) ? u.total : Math.round(u.total / 2),
      invoiceId: null,
      received: addDays(today, -rng.int(1, 10)),
      method: rng.pick(['check', 'wire', 'ach']),
    });
  const receiptIds = await reserveIds(db, 'receipts', receiptSpecs.length);
  const receiptRows = receiptSpecs.map((r, i) => ({
    id: receiptIds[i]!,
    customerId: r.customer.id,
    amountCents: r.amount,
    unappliedCents: r.invoiceId ? 0 : r.amount,
    currency: r.customer.currency,
    method: r.method,
    reference: r.method === 'check' ? `CHK ${rng.int(1001, 9999)}` : `${r.method.toUpperCase()}-${rng.digits(8)}`,
    receivedOn: iso(r.received),
    createdByEmail: 'ar@example.com',
    createdAt: r.received,
    updatedAt: r.received,
  }));
  const allocationRows = receiptSpecs.flatMap((r, i) =>
    r.invoiceId
      ? [
          {
            receiptId: receiptIds[i]!,
            invoiceId: r.invoiceId,
            amountCents: r.amount,
            allocatedByEmail: 'ar@example.com',
            allocatedAt: addDays(r.received, 1),
          },
        ]
      : [],
  );

  // Dunning of the failed invoices (decision 116): their attempts so far; older than the last retry → collection.
  const dunningRows: PgInsertValue<typeof invoiceDunning>[] = failures.map((f) => {
    const first = f.rows[0]!.attemptedAt as Date;
    const last = f.rows[f.rows.length - 1]!;
    const code = last.declineCode as DeclineCode;
    const firstFailedOn = first.toISOString().slice(0, 10);
    const state = { firstFailedOn, failedAttempts: f.rows.length, lastKind: DECLINE_KIND[code] };
    const next = nextRetryOn(state);
    const retrying = next !== null && next > today.toISOString().slice(0, 10);
    return {
      invoiceId: f.invoiceId,
      customerId: f.s.customer.id,
      storeId: f.s.id,
      state: retrying ? 'retrying' : 'collection',
      firstFailedOn,
      failedAttempts: f.rows.length,
      lastDeclineCode: code,
      lastDeclineKind: state.lastKind,
      nextRetryOn: retrying ? next : null,
      createdAt: first,
      updatedAt: last.attemptedAt as Date,
    };
  });

  return { invoiceRows, lineRows, txRows, receiptRows, allocationRows, paidInvoices, unpaidOld, dunningRows };
}
