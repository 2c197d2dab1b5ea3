import type { Readable } from 'node:stream';
import {
  ACCOUNT,
  ACCOUNT_CODES,
  ACCOUNTS,
  GENERAL_LEDGER_CSV_COLUMNS,
  type AccountCode,
  type CurrencyCode,
  type GeneralLedgerQuery,
  type TieOutResult,
  type TrialBalance,
  type TrialBalanceQuery,
  type TrialBalanceRow,
} from '@pos/domain';
import { sql } from 'drizzle-orm';
import type { Db } from '../../db/client';
import type { ServiceCtx } from '../../context';
import { csvStreamKeyset } from '../../lib/csv-stream';

/*
 * Month-end outputs of the journal (issue 28 item 5, decision 146): the trial balance per month and currency, the
 * general-ledger export (one CSV row per journal line) with the provider's account codes, and the tie-outs that
 * prove the journal and the books tell the same story.
 */

type Rows<T> = { rows: T[] };
const n = (v: unknown) => Number(v ?? 0);

/** The provider's code of a journal account (GL_ACCOUNT_MAP), the journal's own when unmapped. */
export function glAccountOf(map: Readonly<Partial<Record<AccountCode, string>>>, account: AccountCode): string {
  return map[account] ?? account;
}

function monthRange(month: string): { first: string; last: string } {
  const [y, m] = month.split('-').map(Number) as [number, number];
  const last = new Date(Date.UTC(y, m, 0)).toISOString().slice(0, 10);
  return { first: `${month}-01`, last };
}

export async function trialBalance(ctx: ServiceCtx, q: TrialBalanceQuery): Promise<TrialBalance> {
  const db = ctx.app.database.db;
  const { first, last } = monthRange(q.month);
  const res = (await db.execute(sql`
    select l.account,
      coalesce(sum(l.debit_cents - l.credit_cents) filter (where l.effective_on < ${first}::date), 0)::text as opening,
      coalesce(sum(l.debit_cents) filter (where l.effective_on >= ${first}::date), 0)::text as debit,
      coalesce(sum(l.credit_cents) filter (where l.effective_on >= ${first}::date), 0)::text as credit
    from journal_lines l
    join journal_entries e on e.id = l.entry_id
    where e.currency = ${q.currency} and l.effective_on <= ${last}::date
    group by l.account`)) as unknown as Rows<{ account: AccountCode; opening: string; debit: string; credit: string }>;
  const byAccount = new Map(res.rows.map((r) => [r.account, r]));
  const map = ctx.app.config.glAccountMap;
  const rows: TrialBalanceRow[] = ACCOUNT_CODES.map((code) => {
    const r = byAccount.get(code);
    const opening = n(r?.opening);
    const debit = n(r?.debit);
    const credit = n(r?.credit);
    const def = ACCOUNTS[code];
    return {
      account: code,
      gl_account: glAccountOf(map, code),
      name: def.name,
      type: def.type,
      opening_cents: opening,
      debit_cents: debit,
      credit_cents: credit,
      closing_cents: opening + debit - credit,
    };
  });
  return {
    month: q.month,
    currency: q.currency,
    rows,
    totals: {
      debit_cents: rows.reduce((s, r) => s + r.debit_cents, 0),
      credit_cents: rows.reduce((s, r) => s + r.credit_cents, 0),
    },
    tie_outs: await tieOuts(db, q.currency),
  };
}

/**
 * The journal against the books, over everything posted until now (the books hold today's figures, so the
 * comparison is to date, whatever month is shown):
 * - balanced: all debits equal all credits;
 * - receivables (1100) equal the open balances of the invoices;
 * - revenue (4000–4300, credit balance) equals what was invoiced less tax, plus debit adjustments and fees charged;
 * - credits allowed (4900) equal the credits and adjustments approved.
 */
export async function tieOuts(db: Db, currency: CurrencyCode): Promise<TieOutResult[]> {
  const revenue = [ACCOUNT.REVENUE_HARDWARE, ACCOUNT.REVENUE_SERVICE, ACCOUNT.REVENUE_FEES, ACCOUNT.REVENUE_OTHER];
  const res = (await db.execute(sql`
    with j as (
      select l.account, sum(l.debit_cents) as d, sum(l.credit_cents) as c
      from journal_lines l join journal_entries e on e.id = l.entry_id
      where e.currency = ${currency}
      group by l.account
    )
    select
      (select coalesce(sum(d), 0) from j)::text as debits,
      (select coalesce(sum(c), 0) from j)::text as credits,
      (select coalesce(sum(d - c), 0) from j where account = ${ACCOUNT.RECEIVABLE})::text as j_receivable,
      (select coalesce(sum(open_cents), 0) from invoices where currency = ${currency})::text as b_receivable,
      (select coalesce(sum(c - d), 0) from j where account in (${sql.join(
        revenue.map((a) => sql`${a}`),
        sql`, `,
      )}))::text as j_revenue,
      ((select coalesce(sum(total_cents - tax_cents), 0) from invoices where currency = ${currency})
        + (select coalesce(sum(-amount_cents), 0) from credit_memos
             where currency = ${currency} and status = 'A' and type = 'A' and amount_cents < 0)
        + (select coalesce(sum(amount_cents), 0) from transactions
             where currency = ${currency} and kind = 'fee' and status = 'S'))::text as b_revenue,
      (select coalesce(sum(d - c), 0) from j where account = ${ACCOUNT.CREDITS_ALLOWED})::text as j_credits,
      (select coalesce(sum(amount_cents), 0) from credit_memos
         where currency = ${currency} and status = 'A' and (type = 'C' or (type = 'A' and amount_cents > 0)))::text
        as b_credits`)) as unknown as Rows<Record<string, string>>;
  const r = res.rows[0]!;
  const pair = (name: TieOutResult['name'], label: string, journal: unknown, books: unknown): TieOutResult => ({
    name,
    label,
    journal_cents: n(journal),
    books_cents: n(books),
    ok: n(journal) === n(books),
  });
  return [
    pair('balanced', 'Debits equal credits', r.debits, r.credits),
    pair('receivables', 'Receivables equal the open invoices', r.j_receivable, r.b_receivable),
    pair('revenue', 'Revenue equals what was invoiced less tax', r.j_revenue, r.b_revenue),
    pair('credits', 'Credits allowed equal the credits approved', r.j_credits, r.b_credits),
  ];
}

interface GlRow {
  entry_id: number;
  effective_on: string;
  posted_at: string;
  kind: string;
  line_no: number;
  account: AccountCode;
  gl_account: string;
  account_name: string;
  customer_id: number | null;
  invoice_id: number | null;
  debit: string;
  credit: string;
  currency: string;
}

const dollars = (cents: number) => (cents / 100).toFixed(2);

/** The general-ledger export: every line of the entries effective in the range, by day, entry and line (keyset). */
export function generalLedgerCsv(ctx: ServiceCtx, q: GeneralLedgerQuery): Readable {
  const db = ctx.app.database.db;
  const map = ctx.app.config.glAccountMap;
  type Key = { day: string; entry: number; line: number };
  return csvStreamKeyset<GlRow, Key>(
    GENERAL_LEDGER_CSV_COLUMNS as unknown as (keyof GlRow & string)[],
    async (after, limit) => {
      const res = (await db.execute(sql`
        select l.entry_id::int as entry_id, to_char(l.effective_on, 'YYYY-MM-DD') as effective_on,
          to_char(e.posted_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"') as posted_at, e.kind,
          l.line_no::int as line_no, l.account, l.customer_id, l.invoice_id,
          l.debit_cents::text as debit_cents, l.credit_cents::text as credit_cents, e.currency
        from journal_lines l join journal_entries e on e.id = l.entry_id
        where e.currency = ${q.currency} and l.effective_on between ${q.from}::date and ${q.to}::date
          ${after ? sql`and (l.effective_on, l.entry_id, l.line_no) > (${after.day}::date, ${after.entry}, ${after.line})` : sql``}
        order by l.effective_on, l.entry_id, l.line_no
        limit ${limit}`)) as unknown as Rows<
        Omit<GlRow, 'gl_account' | 'account_name' | 'debit' | 'credit'> & { debit_cents: string; credit_cents: string }
      >;
      return res.rows.map((r) => ({
        entry_id: r.entry_id,
        effective_on: r.effective_on,
        posted_at: r.posted_at,
        kind: r.kind,
        line_no: r.line_no,
        account: r.account,
        gl_account: glAccountOf(map, r.account),
        account_name: ACCOUNTS[r.account]?.name ?? r.account,
        customer_id: r.customer_id,
        invoice_id: r.invoice_id,
        debit: dollars(n(r.debit_cents)),
        credit: dollars(n(r.credit_cents)),
        currency: r.currency,
      }));
    },
    (r) => ({ day: r.effective_on, entry: r.entry_id, line: r.line_no }),
  );
}

/** The trial balance as CSV (one row per account, then the totals). */
export function trialBalanceCsv(tb: TrialBalance): string {
  const head = ['account', 'gl_account', 'name', 'type', 'opening', 'debit', 'credit', 'closing', 'currency'];
  const lines = tb.rows.map((r) =>
    [
      r.account,
      r.gl_account,
      r.name,
      r.type,
      dollars(r.opening_cents),
      dollars(r.debit_cents),
      dollars(r.credit_cents),
      dollars(r.closing_cents),
      tb.currency,
    ].join(','),
  );
  lines.push(
    ['', '', 'Total', '', '', dollars(tb.totals.debit_cents), dollars(tb.totals.credit_cents), '', tb.currency].join(
      ',',
    ),
  );
  return `\uFEFF${head.join(',')}\r\n${lines.map((l) => `${l}\r\n`).join('')}`;
}
