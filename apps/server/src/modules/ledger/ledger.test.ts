import fc from 'fast-check';
import {
  creditMemoLedgerEntry,
  invoiceBalance,
  LEDGER_CHECK_MISMATCH_CAP,
  transactionLedgerEntry,
  type LedgerEntry,
} from '@pos/domain';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../../db/client';
import {
  createCreditMemo,
  createInvoice,
  createReceipt,
  createReceiptAllocation,
  createStore,
  createTransaction,
  createWriteOff,
} from '../../db/factories';
import { creditMemos, invoices, receiptAllocations, transactions, writeOffs } from '../../db/schema';
import { seedDemoData } from '../../db/seed';
import { createTestDatabase } from '../../test/db-template';
import { signIn } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { journalOpenCents } from './journal.service';
import { balancesOf } from './ledger.service';

type Step =
  | { t: 'charge'; status: 'S' | 'F' | 'P' | 'V' | 'R' | 'B' | 'C'; amount: number }
  | { t: 'money_back'; kind: 'refund' | 'chargeback' | 'reversal'; status: 'S' | 'B' | 'F'; amount: number }
  | { t: 'receipt'; amount: number }
  | { t: 'memo'; type: 'C' | 'R' | 'A'; status: 'P' | 'A' | 'R'; amount: number }
  | { t: 'write_off'; type: 142 | 164; amount: number }
  | { t: 'reverse' };

const cents = fc.integer({ min: 1, max: 40_000 });
const step: fc.Arbitrary<Step> = fc.oneof(
  fc.record({
    t: fc.constant('charge' as const),
    status: fc.constantFrom(...(['S', 'F', 'P', 'V', 'R', 'B', 'C'] as const)),
    amount: cents,
  }),
  fc.record({
    t: fc.constant('money_back' as const),
    kind: fc.constantFrom(...(['refund', 'chargeback', 'reversal'] as const)),
    status: fc.constantFrom(...(['S', 'B', 'F'] as const)),
    amount: cents,
  }),
  fc.record({ t: fc.constant('receipt' as const), amount: cents }),
  fc.record({
    t: fc.constant('memo' as const),
    type: fc.constantFrom(...(['C', 'R', 'A'] as const)),
    status: fc.constantFrom(...(['P', 'A', 'R'] as const)),
    amount: cents,
  }),
  fc.record({ t: fc.constant('write_off' as const), type: fc.constantFrom(142 as const, 164 as const), amount: cents }),
  fc.constant({ t: 'reverse' as const }),
);

/** An invoice's ledger entries read back from its rows, through the domain's row → entry mapping. */
async function entriesOf(db: Database['db'], invoiceId: number): Promise<{ total: number; entries: LedgerEntry[] }> {
  const [inv] = await db.select().from(invoices).where(eq(invoices.id, invoiceId));
  const entries: (LedgerEntry | null)[] = [];
  for (const t of await db.select().from(transactions).where(eq(transactions.invoiceId, invoiceId)))
    entries.push(transactionLedgerEntry({ kind: t.kind, status: t.status, amount_cents: t.amountCents }));
  for (const a of await db.select().from(receiptAllocations).where(eq(receiptAllocations.invoiceId, invoiceId)))
    entries.push({ kind: 'money_in', amount_cents: a.amountCents });
  for (const m of await db.select().from(creditMemos).where(eq(creditMemos.invoiceId, invoiceId)))
    entries.push(creditMemoLedgerEntry({ type: m.type, status: m.status, amount_cents: m.amountCents }));
  for (const w of await db.select().from(writeOffs).where(eq(writeOffs.invoiceId, invoiceId)))
    entries.push({ kind: 'write_off', amount_cents: w.amountCents });
  if (inv!.reversedAt) entries.push({ kind: 'reversal' });
  return { total: inv!.totalCents, entries: entries.filter((e): e is LedgerEntry => e !== null) };
}

describe('the SQL ledger (invoice_balances) agrees with the domain invoiceBalance', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('on random invoices with random payments, receipts, memos, write-offs and reversals', async () => {
    const db = database.db;
    const store = await createStore(db);
    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 0, max: 100_000 }),
        fc.array(step, { maxLength: 12 }),
        async (total, steps) => {
          const inv = await createInvoice(db, {
            storeId: store.id,
            totalCents: total,
            lines: [{ billingItemId: 8, unitCents: total }],
          });
          for (const s of steps) {
            if (s.t === 'charge')
              await createTransaction(db, {
                invoiceId: inv.id,
                kind: 'charge',
                status: s.status,
                amountCents: s.amount,
                failureReason: s.status === 'F' ? 'Declined' : null,
              });
            else if (s.t === 'money_back')
              await createTransaction(db, {
                invoiceId: inv.id,
                kind: s.kind,
                status: s.status,
                amountCents: s.amount,
                failureReason: s.status === 'F' ? 'Declined' : null,
              });
            else if (s.t === 'receipt') {
              const r = await createReceipt(db, { customerId: inv.customerId, amountCents: s.amount + 500 });
              await createReceiptAllocation(db, { receiptId: r.id, invoiceId: inv.id, amountCents: s.amount });
            } else if (s.t === 'memo')
              await createCreditMemo(db, {
                storeId: store.id,
                invoiceId: inv.id,
                type: s.type,
                status: s.status,
                amountCents: s.amount,
              });
            else if (s.t === 'write_off')
              await createWriteOff(db, { invoiceId: inv.id, type: s.type, amountCents: s.amount });
            else await db.update(invoices).set({ status: 'R', reversedAt: new Date() }).where(eq(invoices.id, inv.id));
          }
          const { total: t, entries } = await entriesOf(db, inv.id);
          const fromSql = (await balancesOf(db, [inv.id])).get(inv.id);
          expect(fromSql).toEqual(invoiceBalance(t, entries));
          // The journal the triggers posted (decision 145): its receivables are the open balance, and every entry
          // of the invoice and its customer balances.
          expect((await journalOpenCents(db, [inv.id])).get(inv.id)).toBe(fromSql!.open_cents);
          const unbalanced =
            await db.execute(sql`select e.id from journal_entries e join journal_lines l on l.entry_id = e.id
            where e.customer_id = ${inv.customerId} group by e.id having sum(l.debit_cents) <> sum(l.credit_cents)`);
          expect((unbalanced as unknown as { rows: unknown[] }).rows).toEqual([]);
        },
      ),
      { numRuns: 60 },
    );
  }, 120_000);
});

describe('GET /api/billing/ledger-check/{token} on the demo seed', () => {
  let t: TestApp;
  let admin: string;
  let ar: string;
  beforeAll(async () => {
    const database = await createTestDatabase();
    await seedDemoData(database, { today: new Date('2026-11-22T12:00:00Z') });
    t = await createTestApp({ database });
    admin = await signIn(t, 'admin@example.com');
    ar = await signIn(t, 'ar@example.com');
  }, 180_000);
  afterAll(async () => {
    await t.close();
    await t.database.close();
  });

  const check = (token: string) => t.request({ method: 'GET', url: `/api/billing/ledger-check/${token}` });

  it('finds no mismatch on the seed: every stored paid_cents, status and unapplied_cents is the derivation', async () => {
    const res = await check(admin);
    expect(res.statusCode).toBe(200);
    const info = res.json().info;
    const [counts] = await t.database.query<{ invoices: string; receipts: string }>(
      'select (select count(*) from invoices) as invoices, (select count(*) from receipts) as receipts',
    );
    expect(info).toEqual({
      checked_invoices: Number(counts!.invoices),
      checked_receipts: Number(counts!.receipts),
      mismatch_count: 0,
      mismatches: [],
      limit_breach_count: 0,
      limit_breaches: [],
      journal_mismatch_count: 0,
      journal_mismatches: [],
      unbalanced_entry_count: 0,
      unbalanced_entries: [],
      ok: true,
      checked_at: '2026-11-22T12:00:00.000Z',
    });
    expect(info.checked_invoices).toBeGreaterThan(1000);
  });

  it('the seed has invoices of every kind the ledger distinguishes', async () => {
    const [kinds] = await t.database.query<Record<string, string>>(
      `select count(*) filter (where status = 'R') as reversed,
              count(*) filter (where status = 'N' and open_cents > 0) as open,
              count(*) filter (where written_off_cents > 0) as written_off,
              count(*) filter (where overpaid_cents > 0) as overpaid,
              count(*) filter (where status = 'P' and paid_cents < total_cents) as settled_otherwise
       from invoice_balances`,
    );
    for (const [k, n] of Object.entries(kinds!)) expect(Number(n), k).toBeGreaterThan(0);
  });

  it('shows a stored figure changed behind the ledger’s back, and a receipt whose unapplied amount is wrong', async () => {
    const [paid] = await t.database.query<{ id: number; paid_cents: string; total_cents: string }>(
      `select id, paid_cents, total_cents from invoices where status = 'P' and paid_cents > 1 and reversed_at is null order by id limit 1`,
    );
    const [receipt] = await t.database.query<{ id: number; unapplied_cents: string }>(
      'select id, unapplied_cents from receipts where unapplied_cents > 0 order by id limit 1',
    );
    await t.database.query('update invoices set paid_cents = paid_cents - 1 where id = $1', [paid!.id]);
    await t.database.query('update receipts set unapplied_cents = unapplied_cents - 1 where id = $1', [receipt!.id]);
    try {
      const info = (await check(admin)).json().info;
      expect(info.mismatch_count).toBe(2);
      expect(info.mismatches).toEqual([
        {
          invoice_id: paid!.id,
          receipt_id: null,
          field: 'paid_cents',
          stored: Number(paid!.paid_cents) - 1,
          derived: Number(paid!.paid_cents),
        },
        {
          invoice_id: null,
          receipt_id: receipt!.id,
          field: 'unapplied_cents',
          stored: Number(receipt!.unapplied_cents) - 1,
          derived: Number(receipt!.unapplied_cents),
        },
      ]);
    } finally {
      await t.database.query('update invoices set paid_cents = paid_cents + 1 where id = $1', [paid!.id]);
      await t.database.query('update receipts set unapplied_cents = unapplied_cents + 1 where id = $1', [receipt!.id]);
    }
  });

  it(`caps the list at ${LEDGER_CHECK_MISMATCH_CAP} and counts them all`, async () => {
    await t.database.query(
      `update invoices set status = 'N' where id in (select id from invoices where status = 'P' order by id limit ${LEDGER_CHECK_MISMATCH_CAP + 5})`,
    );
    try {
      const info = (await check(admin)).json().info;
      expect(info.mismatch_count).toBe(LEDGER_CHECK_MISMATCH_CAP + 5);
      expect(info.mismatches).toHaveLength(LEDGER_CHECK_MISMATCH_CAP);
      expect(info.mismatches[0]).toMatchObject({ field: 'status', stored: 'N', derived: 'P' });
    } finally {
      await t.database.db.execute(sql`update invoices set status = 'P' where status = 'N' and id in (
        select invoice_id from invoice_balances where status = 'P')`);
    }
    expect((await check(admin)).json().info.mismatch_count).toBe(0);
  });

  it('checks an invoice id range when asked, and refuses a bad range with 400 and its field', async () => {
    const [ids] = await t.database.query<{ lo: number; hi: number }>(
      'select min(id) as lo, max(id) as hi from invoices',
    );
    const [pick] = await t.database.query<{ id: number }>(
      `select min(id) as id from invoices where id >= $1 and paid_cents > 0`,
      [Math.floor((ids!.lo + ids!.hi) / 2)],
    );
    const mid = pick!.id;
    await t.database.query('update invoices set paid_cents = paid_cents - 1 where id = $1', [mid]);
    try {
      const ranged = (
        await t.request({
          method: 'GET',
          url: `/api/billing/ledger-check/${admin}?from_invoice_id=${mid}&to_invoice_id=${mid + 9}`,
        })
      ).json().info;
      expect(ranged.checked_invoices).toBe(10);
      expect(ranged.mismatches.map((m: { invoice_id: number; field: string }) => [m.invoice_id, m.field])).toEqual([
        [mid, 'paid_cents'],
      ]);
      const before = (
        await t.request({ method: 'GET', url: `/api/billing/ledger-check/${admin}?to_invoice_id=${mid - 1}` })
      ).json().info;
      expect(before.checked_invoices).toBe(mid - ids!.lo);
      expect(before.mismatch_count).toBe(0);
    } finally {
      await t.database.query('update invoices set paid_cents = paid_cents + 1 where id = $1', [mid]);
    }
    const bad = await t.request({
      method: 'GET',
      url: `/api/billing/ledger-check/${admin}?from_invoice_id=9&to_invoice_id=3`,
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.to_invoice_id).toMatch(/after/);
    const nan = await t.request({ method: 'GET', url: `/api/billing/ledger-check/${admin}?from_invoice_id=abc` });
    expect(nan.statusCode).toBe(400);
    expect(nan.json().error.fields).toHaveProperty('from_invoice_id');
  });

  it('is described in the OpenAPI document', async () => {
    const doc = (await t.request({ method: 'GET', url: '/api/openapi.json' })).json();
    expect(doc.paths['/api/billing/ledger-check/{token}'].get.parameters.map((p: { name: string }) => p.name)).toEqual(
      expect.arrayContaining(['token', 'from_invoice_id', 'to_invoice_id']),
    );
  });

  it('is for admins only: another role gets 403 forbidden, a bad token 403 session_invalid', async () => {
    const other = await check(ar);
    expect(other.statusCode).toBe(403);
    expect(other.json().error.code).toBe('forbidden');
    const bad = await check('not-a-real-session-token-0000000000');
    expect(bad.statusCode).toBe(403);
    expect(bad.json().error.code).toBe('session_invalid');
  });
});
