import { z } from 'zod';
import { ACCOUNT_CODES, type AccountCode } from '../codes/accounts';
import { CURRENCY_CODES } from '../codes/currencies';

/*
 * Month-end accounting outputs (issue 28 item 5, decision 146), for AR (privilege ar_approvals):
 *   GET /api/accounting/trial-balance/{token}?month=YYYY-MM&currency=USD[&format=csv] → trialBalance
 *   GET /api/accounting/general-ledger/{token}?from=YYYY-MM-DD&to=YYYY-MM-DD&currency=USD → CSV, one row per journal
 *       line of the entries effective in the range (at most GENERAL_LEDGER_MAX_DAYS days)
 * Figures come from the journal only; the tie-outs compare them with the books (open invoices, receipts, memos).
 */

export const GENERAL_LEDGER_MAX_DAYS = 366;

const month = z
  .string({ message: 'Give the month as YYYY-MM.' })
  .regex(/^\d{4}-(0[1-9]|1[0-2])$/, { message: 'Give the month as YYYY-MM.' });
const day = (what: string) =>
  z
    .string({ message: `Give the ${what} day as YYYY-MM-DD.` })
    .regex(/^\d{4}-\d{2}-\d{2}$/, { message: `Give the ${what} day as YYYY-MM-DD.` })
    .refine(
      (d) => !Number.isNaN(Date.parse(`${d}T00:00:00Z`)) && new Date(`${d}T00:00:00Z`).toISOString().startsWith(d),
      {
        message: `The ${what} day is not a real date.`,
      },
    );
const currency = z.enum(CURRENCY_CODES, { message: `Currency is one of ${CURRENCY_CODES.join(', ')}.` });

export const trialBalanceQuery = z.object({
  month,
  currency,
  format: z.enum(['json', 'csv']).default('json'),
});
export type TrialBalanceQuery = z.infer<typeof trialBalanceQuery>;

export const generalLedgerQuery = z
  .object({ from: day('first'), to: day('last'), currency })
  .refine((q) => q.from <= q.to, { message: 'The first day must not be after the last.', path: ['to'] })
  .refine((q) => (Date.parse(q.to) - Date.parse(q.from)) / 86_400_000 < GENERAL_LEDGER_MAX_DAYS, {
    message: `Export at most ${GENERAL_LEDGER_MAX_DAYS} days at a time.`,
    path: ['to'],
  });
export type GeneralLedgerQuery = z.infer<typeof generalLedgerQuery>;

const accountCode = z.enum(ACCOUNT_CODES as [AccountCode, ...AccountCode[]]);

export const trialBalanceRow = z.object({
  account: accountCode,
  /** The provider's own account code (GL_ACCOUNT_MAP), the journal's code when unmapped. */
  gl_account: z.string(),
  name: z.string(),
  type: z.enum(['asset', 'liability', 'revenue', 'contra_revenue', 'expense']),
  /** Balance before the month (debits − credits, through the last day of the month before). */
  opening_cents: z.number().int(),
  debit_cents: z.number().int(),
  credit_cents: z.number().int(),
  /** Balance at the end of the month (debits − credits): positive is a debit balance. */
  closing_cents: z.number().int(),
});
export type TrialBalanceRow = z.infer<typeof trialBalanceRow>;

export const TIE_OUTS = ['balanced', 'receivables', 'unapplied', 'revenue', 'credits'] as const;
export type TieOut = (typeof TIE_OUTS)[number];

export const tieOut = z.object({
  name: z.enum(TIE_OUTS),
  label: z.string(),
  /** The journal's figure. */
  journal_cents: z.number().int(),
  /** The books' figure it must equal. */
  books_cents: z.number().int(),
  ok: z.boolean(),
});
export type TieOutResult = z.infer<typeof tieOut>;

export const trialBalance = z.object({
  month: z.string(),
  currency: z.enum(CURRENCY_CODES),
  rows: z.array(trialBalanceRow),
  totals: z.object({ debit_cents: z.number().int(), credit_cents: z.number().int() }),
  /** Journal against books, over everything posted until now (the books hold today's figures). */
  tie_outs: z.array(tieOut),
});
export type TrialBalance = z.infer<typeof trialBalance>;

export const GENERAL_LEDGER_CSV_COLUMNS = [
  'entry_id',
  'effective_on',
  'posted_at',
  'kind',
  'line_no',
  'account',
  'gl_account',
  'account_name',
  'customer_id',
  'invoice_id',
  'debit',
  'credit',
  'currency',
] as const;
