import { BILLING_ITEM_IDS } from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCustomer, createInvoice, createStore, ensureBillingItems } from '../../db/factories';
import { seedDemoData } from '../../db/seed';
import { createTestDatabase } from '../../test/db-template';
import { signIn } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { journalOpenCents, journalRefundable, journalUnappliedCents } from './journal.service';
import { invoiceLimits } from './limits';

/*
 * The double-entry journal (issue 28, decision 145): posted by the triggers of migration 0029 on every money table,
 * append-only, every entry balanced at commit; an invoice's open balance, a customer's unapplied credit and what is
 * refundable are derived from it; the ledger check compares it with the ledger and notices a corrupted row.
 */

let t: TestApp;
let tok: Record<'admin' | 'ar', string>;

const key = () => `journal-${crypto.randomUUID()}`;
const check = async () => {
  const res = await t.request({ method: 'GET', url: `/api/billing/ledger-check/${tok.admin}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().info;
};
const q = <T = Record<string, unknown>>(text: string, params: unknown[] = []) => t.database.query<T>(text, params);
/** Run statements with the journal's triggers off (as a replica would): a row written around them. */
const aroundTheTriggers = (statements: string) =>
  t.database.exec(`begin; set local session_replication_role = replica; ${statements}; commit;`);

beforeAll(async () => {
  const database = await createTestDatabase();
  await seedDemoData(database, { today: new Date('2026-11-22T12:00:00Z') });
  t = await createTestApp({ database });
  tok = { admin: await signIn(t, 'admin@example.com'), ar: await signIn(t, 'ar@example.com') };
  await ensureBillingItems(database.db, [BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE]);
}, 240_000);
afterAll(async () => {
  await t.close();
  await t.database.close();
});

describe('the journal of the demo seed', () => {
  it('posts every invoice, payment, receipt, memo and write-off of the seed, each entry balanced', async () => {
    const kinds = await q<{ kind: string }>('select distinct kind from journal_entries order by kind');
    expect(kinds.map((k) => k.kind)).toEqual(
      expect.arrayContaining([
        'invoice_issued',
        'charge_captured',
        'receipt_received',
        'receipt_applied',
        'credit',
        'refund_memo',
        'write_off',
        'invoice_reversed',
      ]),
    );
    const [unbalanced] = await q<{ n: string }>(`select count(*) as n from (
      select e.id from journal_entries e left join journal_lines l on l.entry_id = e.id group by e.id
      having coalesce(sum(l.debit_cents), 0) <> coalesce(sum(l.credit_cents), 0) or count(l.entry_id) = 0) x`);
    expect(Number(unbalanced!.n)).toBe(0);
    // A trial balance per currency sums to zero.
    const trial = await q<{
      currency: string;
      net: string;
    }>(`select e.currency, sum(l.debit_cents - l.credit_cents) as net
      from journal_lines l join journal_entries e on e.id = l.entry_id group by e.currency`);
    expect(trial.length).toBeGreaterThan(0);
    for (const r of trial) expect(Number(r.net), r.currency).toBe(0);
  });

  it("every invoice's receivables equal its ledger open balance", async () => {
    const [row] = await q<{ invoices: string; differ: string }>(`select count(*) as invoices,
      count(*) filter (where b.open_cents <> coalesce(j.cents, 0)) as differ
      from invoice_balances b left join (select invoice_id, sum(debit_cents - credit_cents) as cents from journal_lines
        where account = '1100' group by invoice_id) j on j.invoice_id = b.invoice_id`);
    expect(Number(row!.invoices)).toBeGreaterThan(1000);
    expect(Number(row!.differ)).toBe(0);
  });

  it('journal_rebuild() finds nothing left to post: the triggers posted what the set-based rebuild would', async () => {
    const [r] = await q<{ posted: number }>('select journal_rebuild() as posted');
    expect(r!.posted).toBe(0);
  });

  it('the ledger check is clean on the seed, the journal included', async () => {
    const info = await check();
    expect(info).toMatchObject({
      journal_mismatch_count: 0,
      journal_mismatches: [],
      unbalanced_entry_count: 0,
      unbalanced_entries: [],
      ok: true,
    });
  });

  it("what is refundable on an invoice, from the journal, equals the limits' figure from the money tables", async () => {
    const ids = await q<{ id: number }>(`select distinct invoice_id as id from journal_lines
      where account = '1100' and invoice_id in (select invoice_id from receipt_allocations
        union select invoice_id from transactions where kind = 'charge' and status = 'S'
        union select invoice_id from credit_memos where type = 'R')
      order by 1 limit 60`);
    expect(ids.length).toBeGreaterThan(20);
    for (const { id } of ids) {
      const fromJournal = await journalRefundable(t.database.db, id);
      const limits = await invoiceLimits(t.database.db, id);
      expect(fromJournal.refundableCents, `invoice ${id}`).toBe(limits.refundableCents);
    }
  });
});

describe('existing data is posted set-based (the migration, seed:scale)', () => {
  it('rows written with the triggers off are missing from the journal until journal_rebuild() posts them', async () => {
    const [c] = await q<{ id: number; store_id: number }>(
      `select c.id, s.id as store_id from customers c join stores s on s.customer_id = c.id order by c.id desc limit 1`,
    );
    // An invoice of 100.00 overpaid by a 130.00 charge, written as seed:scale writes: around the triggers.
    await aroundTheTriggers(`
      insert into invoices (invoice_number, customer_id, store_id, type, issued_on, due_on, total_cents, open_cents, currency)
        values ('INV-JOURNAL-1', ${c!.id}, ${c!.store_id}, 'M', '2026-11-01', '2026-11-15', 10000, 10000, 'USD');
      insert into transactions (customer_id, store_id, invoice_id, kind, status, amount_cents, currency, settled_at)
        select ${c!.id}, ${c!.store_id}, id, 'charge', 'S', 13000, 'USD', '2026-11-02' from invoices where invoice_number = 'INV-JOURNAL-1'`);
    const [inv] = await q<{ id: number }>(`select id from invoices where invoice_number = 'INV-JOURNAL-1'`);
    const before = await check();
    expect(before.ok).toBe(false);
    // Nothing is open on it (overpaid), so its receivables (none posted) agree; its customer's credit on account does
    // not: the 30.00 overpaid is missing from the journal.
    const customer = before.journal_mismatches.find(
      (m: { account: string; customer_id: number }) => m.account === '2100' && m.customer_id === c!.id,
    );
    expect(customer.derived_cents - customer.journal_cents).toBe(3000);
    const [posted] = await q<{ n: number }>('select journal_rebuild() as n');
    expect(posted!.n).toBeGreaterThan(0);
    const entries = await q<{ kind: string; lines: string }>(
      `select e.kind, json_agg(json_build_array(l.account, l.debit_cents, l.credit_cents) order by l.line_no)::text as lines
       from journal_entries e join journal_lines l on l.entry_id = e.id where e.invoice_id = $1 group by e.id order by e.id`,
      [inv!.id],
    );
    expect(entries.map((e) => [e.kind, JSON.parse(e.lines)])).toEqual([
      [
        'invoice_issued',
        [
          ['1100', 10000, 0],
          ['4100', 0, 10000],
        ],
      ],
      [
        'charge_captured',
        [
          ['1010', 13000, 0],
          ['1100', 0, 13000],
        ],
      ],
      // The 30.00 paid over the total is credit on account.
      [
        'invoice_settled',
        [
          ['1100', 3000, 0],
          ['2100', 0, 3000],
        ],
      ],
    ]);
    expect((await journalOpenCents(t.database.db, [inv!.id])).get(inv!.id)).toBe(0);
    // The stored figures were written by hand above; the journal agrees with the ledger's derivation.
    const after = await check();
    expect(after.journal_mismatches).toEqual([]);
    expect(after.unbalanced_entries).toEqual([]);
    await q(`update invoices set paid_cents = 10000, open_cents = 0, status = 'P' where id = $1`, [inv!.id]);
    expect((await check()).ok).toBe(true);
    const [again] = await q<{ n: number }>('select journal_rebuild() as n');
    expect(again!.n).toBe(0);
  });
});

describe('the journal is append-only and balanced', () => {
  it('refuses to change or delete a line or an entry', async () => {
    await expect(q('update journal_lines set debit_cents = debit_cents + 1 where debit_cents > 0')).rejects.toThrow(
      /append-only/,
    );
    await expect(q('delete from journal_lines')).rejects.toThrow(/append-only/);
    await expect(q(`update journal_entries set kind = 'fee'`)).rejects.toThrow(/append-only/);
    await expect(q('delete from journal_entries')).rejects.toThrow(/append-only/);
    await expect(q('truncate journal_lines, journal_entries')).rejects.toThrow(/append-only/);
  });

  it('refuses an unbalanced entry when its transaction commits, and a line added later to a posted entry', async () => {
    const [c] = await q<{ id: number }>('select id from customers order by id limit 1');
    await expect(
      t.database.exec(`begin;
        insert into journal_entries (id, kind, currency, effective_on, source, source_id)
          overriding system value values (900000001, 'correction', 'USD', '2026-11-22', 'manual', 1);
        insert into journal_lines (entry_id, line_no, account, customer_id, debit_cents, effective_on)
          values (900000001, 1, '2100', ${c!.id}, 500, '2026-11-22');
        insert into journal_lines (entry_id, line_no, account, credit_cents, effective_on)
          values (900000001, 2, '1000', 499, '2026-11-22');
        commit;`),
    ).rejects.toThrow(/does not balance/);
    await t.database.exec('rollback').catch(() => undefined);
    expect(await q('select 1 from journal_entries where id = 900000001')).toEqual([]);
    const [old] = await q<{ id: string }>('select min(id) as id from journal_entries');
    await expect(
      q(
        `insert into journal_lines (entry_id, line_no, account, debit_cents, effective_on) values ($1, 99, '1000', 1, '2026-11-22')`,
        [old!.id],
      ),
    ).rejects.toThrow(/same transaction/);
    // …and a line of no entry at all.
    await expect(
      q(
        `insert into journal_lines (entry_id, line_no, account, debit_cents, effective_on) values (987654321, 1, '1000', 1, '2026-11-22')`,
      ),
    ).rejects.toThrow(/same transaction/);
  });
});

describe('the ledger check notices a corrupted journal', () => {
  it('a stray unbalanced line written around the triggers: ok false, the entry and the invoice listed', async () => {
    const [line] = await q<{ entry_id: string; invoice_id: number; customer_id: number; kind: string }>(
      `select l.entry_id, l.invoice_id, l.customer_id, e.kind from journal_lines l join journal_entries e on e.id = l.entry_id
       where l.account = '1100' and e.kind = 'invoice_issued' order by l.entry_id limit 1`,
    );
    const entryId = Number(line!.entry_id);
    const [open] = await q<{ open_cents: string; currency: string }>(
      'select b.open_cents, i.currency from invoice_balances b join invoices i on i.id = b.invoice_id where b.invoice_id = $1',
      [line!.invoice_id],
    );
    await aroundTheTriggers(`insert into journal_lines (entry_id, line_no, account, customer_id, invoice_id, debit_cents, effective_on)
      values (${entryId}, 90, '1100', ${line!.customer_id}, ${line!.invoice_id}, 1234, '2026-11-22')`);
    try {
      const info = await check();
      expect(info.ok).toBe(false);
      expect(info.unbalanced_entries).toEqual([
        {
          entry_id: entryId,
          kind: 'invoice_issued',
          currency: open!.currency,
          debit_cents: expect.any(Number),
          credit_cents: expect.any(Number),
        },
      ]);
      const e = info.unbalanced_entries[0];
      expect(e.debit_cents - e.credit_cents).toBe(1234);
      expect(info.journal_mismatches).toEqual([
        {
          account: '1100',
          customer_id: line!.customer_id,
          invoice_id: line!.invoice_id,
          currency: open!.currency,
          journal_cents: Number(open!.open_cents) + 1234,
          derived_cents: Number(open!.open_cents),
        },
      ]);
      // The other figures are untouched: only the journal is wrong.
      expect(info.mismatch_count).toBe(0);
    } finally {
      await aroundTheTriggers(`delete from journal_lines where entry_id = ${entryId} and line_no = 90`);
    }
    expect((await check()).ok).toBe(true);
  });

  it('a wrong but balanced entry: the invoice and the customer whose figures it moved are listed', async () => {
    const [inv] = await q<{ id: number; customer_id: number; currency: string; open_cents: string }>(
      `select i.id, i.customer_id, i.currency, b.open_cents from invoices i join invoice_balances b on b.invoice_id = i.id
       where b.open_cents > 0 order by i.id limit 1`,
    );
    const [unapplied] = await q<{ cents: string | null }>(
      `select sum(l.credit_cents - l.debit_cents) as cents from journal_lines l join journal_entries e on e.id = l.entry_id
       where l.account = '2100' and l.customer_id = $1 and e.currency = $2`,
      [inv!.customer_id, inv!.currency],
    );
    // "Applied" 700 of credit on account to the invoice that nobody applied: balanced, and wrong.
    await t.database.exec(`begin;
      insert into journal_entries (id, kind, currency, effective_on, customer_id, invoice_id, source, source_id)
        overriding system value values (900000002, 'receipt_applied', '${inv!.currency}', '2026-11-22', ${inv!.customer_id}, ${inv!.id}, 'manual', 1);
      insert into journal_lines (entry_id, line_no, account, customer_id, debit_cents, effective_on)
        values (900000002, 1, '2100', ${inv!.customer_id}, 700, '2026-11-22');
      insert into journal_lines (entry_id, line_no, account, customer_id, invoice_id, credit_cents, effective_on)
        values (900000002, 2, '1100', ${inv!.customer_id}, ${inv!.id}, 700, '2026-11-22');
      commit;`);
    const info = await check();
    expect(info.ok).toBe(false);
    expect(info.unbalanced_entry_count).toBe(0);
    expect(info.journal_mismatches).toEqual([
      {
        account: '1100',
        customer_id: inv!.customer_id,
        invoice_id: inv!.id,
        currency: inv!.currency,
        journal_cents: Number(inv!.open_cents) - 700,
        derived_cents: Number(inv!.open_cents),
      },
      {
        account: '2100',
        customer_id: inv!.customer_id,
        invoice_id: null,
        currency: inv!.currency,
        journal_cents: Number(unapplied!.cents ?? 0) - 700,
        derived_cents: Number(unapplied!.cents ?? 0),
      },
    ]);
    // Corrected by a new entry, never by an update: the check is clean again.
    await t.database.exec(`begin;
      insert into journal_entries (kind, currency, effective_on, customer_id, invoice_id, source, source_id, reverses_entry_id)
        values ('correction', '${inv!.currency}', '2026-11-22', ${inv!.customer_id}, ${inv!.id}, 'manual', 1, 900000002);
      insert into journal_lines (entry_id, line_no, account, customer_id, invoice_id, debit_cents, effective_on)
        values (currval(pg_get_serial_sequence('journal_entries', 'id')), 1, '1100', ${inv!.customer_id}, ${inv!.id}, 700, '2026-11-22');
      insert into journal_lines (entry_id, line_no, account, customer_id, credit_cents, effective_on)
        values (currval(pg_get_serial_sequence('journal_entries', 'id')), 2, '2100', ${inv!.customer_id}, 700, '2026-11-22');
      commit;`);
    expect((await check()).ok).toBe(true);
  });
});

describe('every movement posts one balanced entry (through HTTP)', () => {
  it('a receipt received, applied and un-applied: three entries; open balance and unapplied credit from the journal', async () => {
    const db = t.database.db;
    const c = await createCustomer(db, { country: 'US', legalName: 'Journal Diner LLC' });
    const s = await createStore(db, { customerId: c.id, country: 'US', doingBusinessAs: 'Journal Diner' });
    const inv = await createInvoice(db, {
      customerId: c.id,
      storeId: s.id,
      currency: 'USD',
      lines: [
        { billingItemId: BILLING_ITEM_IDS.MONTHLY_SERVICE_FEE, description: 'Monthly service fee', unitCents: 120_00 },
      ],
    });
    expect((await journalOpenCents(db, [inv.id])).get(inv.id)).toBe(inv.totalCents);
    const recorded = await t.request({
      method: 'POST',
      url: `/api/receipts/${tok.ar}`,
      payload: {
        customer_id: c.id,
        store_id: s.id,
        method: 'wire',
        reference: 'WIRE-J1',
        amount_cents: 200_00,
        currency: 'USD',
        received_on: '2026-11-20',
      },
      headers: { 'idempotency-key': key() },
    });
    expect(recorded.statusCode, recorded.body).toBe(201);
    const receipt = recorded.json().info.receipt;
    expect(await journalUnappliedCents(db, c.id)).toEqual({ USD: 200_00 });
    const applied = await t.request({
      method: 'POST',
      url: `/api/receipts/${receipt.id}/applications/${tok.ar}`,
      payload: { version: receipt.version, applications: [{ invoice_id: inv.id, amount_cents: 50_00 }] },
      headers: { 'idempotency-key': key() },
    });
    expect(applied.statusCode, applied.body).toBe(200);
    const allocation = applied.json().info.allocations[0];
    expect((await journalOpenCents(db, [inv.id])).get(inv.id)).toBe(inv.totalCents - 50_00);
    expect(await journalUnappliedCents(db, c.id)).toEqual({ USD: 150_00 });
    const removed = await t.request({
      method: 'DELETE',
      url: `/api/receipts/${receipt.id}/applications/${allocation.id}/${tok.ar}?version=${applied.json().info.receipt.version}`,
      headers: { 'idempotency-key': key() },
    });
    expect(removed.statusCode, removed.body).toBe(200);
    expect((await journalOpenCents(db, [inv.id])).get(inv.id)).toBe(inv.totalCents);
    expect(await journalUnappliedCents(db, c.id)).toEqual({ USD: 200_00 });
    const entries = await q<{ kind: string; source: string; lines: string }>(
      `select e.kind, e.source, json_agg(json_build_array(l.account, l.debit_cents, l.credit_cents) order by l.line_no)::text as lines
       from journal_entries e join journal_lines l on l.entry_id = e.id
       where e.customer_id = $1 group by e.id order by e.id`,
      [c.id],
    );
    expect(entries.map((e) => [e.kind, e.source, JSON.parse(e.lines)])).toEqual([
      [
        'invoice_issued',
        'invoice',
        [
          ['1100', inv.totalCents, 0],
          ...(inv.taxCents > 0 ? [['2200', 0, inv.taxCents]] : []),
          ['4100', 0, inv.totalCents - inv.taxCents],
        ],
      ],
      [
        'receipt_received',
        'receipt',
        [
          ['1000', 200_00, 0],
          ['2100', 0, 200_00],
        ],
      ],
      [
        'receipt_applied',
        'allocation',
        [
          ['1100', 0, 50_00],
          ['2100', 50_00, 0],
        ],
      ],
      [
        'receipt_unapplied',
        'allocation',
        [
          ['1100', 50_00, 0],
          ['2100', 0, 50_00],
        ],
      ],
    ]);
    expect((await check()).ok).toBe(true);
  });
});
