import { z } from 'zod';
import { CURRENCY_CODES } from '../codes/currencies';
import { ALL_STATE_CODES, isStateOf } from '../codes/states';
import type { LicenseStatus } from '../rules/license';
import { cappedPagedList, paginationQuerySchema, queryIdList, queryValueList } from './common';
import { queryBooleanSchema } from './customer-accounts';
import { STORE_STATUS_VALUES, sortSchema } from './customers';

/*
 * Customer listing (#/customer-listing, privilege `reports_edit`; issue 18 part 2, decision 130): one row per store
 * with its customer, sales rep, agents, current service plan, open balance (the ledger's invoice_balances) and
 * license state (the domain rule licenseStatus, in SQL).
 *   GET /api/reports/customer-listing/{token}?status&country&state&sales_rep&agent_id&plan&balance&balance_min
 *       &balance_max&license&sort&limit&offset[&format=csv]   → customerListingResult (CSV: every row, streamed;
 *       header x-total-count: the exact number of rows the CSV holds)
 *   GET /api/reports/customer-listing/options/{token}                    → customerListingOptions (agents, sales reps)
 * An agent-scoped session (decision 124) lists only the stores it may see.
 */

export const LISTING_LICENSE_STATES = [
  'active',
  'grace',
  'expired',
  'disabled',
] as const satisfies readonly LicenseStatus[];
/** The store's current service plan: monthly, yearly or none. */
export const LISTING_PLAN_KINDS = ['monthly', 'yearly', 'none'] as const;
export type ListingPlanKind = (typeof LISTING_PLAN_KINDS)[number];
export const LISTING_PLAN_LABELS: Readonly<Record<ListingPlanKind, string>> = {
  monthly: 'Monthly service',
  yearly: 'Yearly service',
  none: 'No service plan',
};
/** with: open balance > 0; without: none open. */
export const LISTING_BALANCE_FILTERS = ['with', 'without'] as const;

export const LISTING_SORT_FIELDS = [
  'customer',
  'customer_id',
  'store_id',
  'store',
  'state',
  'sales_rep',
  'balance',
  'license_expires_on',
] as const;
export type ListingSortField = (typeof LISTING_SORT_FIELDS)[number];
export const LISTING_DEFAULT_SORT = 'customer';

/** 100,000,000.00: a typo guard for the balance bounds. */
const MAX_CENTS = 10_000_000_000;
const cents = (what: string) =>
  z.coerce
    .number({ message: `The ${what} is a number of cents.` })
    .int({ message: `The ${what} is a whole number of cents.` })
    .min(0, { message: `The ${what} is at least 0.` })
    .max(MAX_CENTS, { message: `The ${what} is too large.` });

const LISTING_STATE_CODES = ALL_STATE_CODES;

export const customerListingQuery = paginationQuerySchema
  .extend({
    status: z.enum(STORE_STATUS_VALUES, { message: `Status is one of ${STORE_STATUS_VALUES.join(', ')}.` }).optional(),
    country: z.enum(['US', 'CA'], { message: 'Country is US or CA.' }).optional(),
    /** One state / province code or several (`CA,NY`), any case; within `country` when it is given. */
    state: z.preprocess(
      (v) => (typeof v === 'string' ? v.toUpperCase() : v),
      queryValueList(
        LISTING_STATE_CODES,
        (bad, text) => `Unknown state ${bad.join(', ') || text}: use two-letter state or province codes.`,
        LISTING_STATE_CODES.length * 3,
      ),
    ),
    /** The store's sales rep (its name, any case, exactly). */
    sales_rep: z.string().trim().min(1).max(100, { message: 'Sales rep is at most 100 characters.' }).optional(),
    /** One agent or several (`3,5`): stores any of them serves. */
    agent_id: queryIdList('agent id'),
    plan: z.enum(LISTING_PLAN_KINDS, { message: `Plan is one of ${LISTING_PLAN_KINDS.join(', ')}.` }).optional(),
    balance: z.enum(LISTING_BALANCE_FILTERS, { message: 'Balance is with or without.' }).optional(),
    balance_min: cents('smallest balance').optional(),
    balance_max: cents('largest balance').optional(),
    license: z
      .enum(LISTING_LICENSE_STATES, { message: `License is one of ${LISTING_LICENSE_STATES.join(', ')}.` })
      .optional(),
    sort: sortSchema(LISTING_SORT_FIELDS),
    format: z.enum(['json', 'csv'], { message: 'Format is json or csv.' }).default('json'),
    /** csv only: also answer the exact count in x-total-count (default yes). */
    count: queryBooleanSchema.optional(),
  })
  .superRefine((q, ctx) => {
    const foreign = q.country ? (q.state ?? []).filter((code) => !isStateOf(q.country!, code)) : [];
    if (foreign.length > 0)
      ctx.addIssue({
        code: 'custom',
        path: ['state'],
        message: `${foreign.join(', ')} ${foreign.length === 1 ? 'is not a state' : 'are not states'} of ${q.country}.`,
      });
    if (q.balance_min !== undefined && q.balance_max !== undefined && q.balance_min > q.balance_max)
      ctx.addIssue({ code: 'custom', path: ['balance_max'], message: 'The largest balance is below the smallest.' });
  });
export type CustomerListingQuery = z.infer<typeof customerListingQuery>;

export const customerListingItem = z.object({
  customer_id: z.number().int(),
  legal_name: z.string(),
  customer_status: z.string(),
  store_id: z.number().int(),
  store_name: z.string(),
  doing_business_as: z.string(),
  store_status: z.string(),
  country: z.string(),
  state: z.string(),
  sales_rep: z.string().nullable(),
  /** The store's agents (agent_stores), by name, comma-separated. */
  agents: z.string().nullable(),
  plan_name: z.string().nullable(),
  plan_kind: z.enum(LISTING_PLAN_KINDS),
  /** The open balance of the store's invoices by the ledger (invoice_balances), in the store's currency. */
  open_balance_cents: z.number().int(),
  currency: z.enum(CURRENCY_CODES),
  license_state: z.enum(LISTING_LICENSE_STATES),
  license_expires_on: z.string().nullable(),
});
export type CustomerListingItem = z.infer<typeof customerListingItem>;
export const customerListingResult = cappedPagedList(customerListingItem);
export type CustomerListingResult = z.infer<typeof customerListingResult>;

export const CUSTOMER_LISTING_CSV_COLUMNS = [
  'customer_id',
  'legal_name',
  'customer_status',
  'store_id',
  'store_name',
  'doing_business_as',
  'store_status',
  'country',
  'state',
  'sales_rep',
  'agents',
  'plan_name',
  'open_balance',
  'currency',
  'license_state',
  'license_expires_on',
] as const;

export const customerListingOptions = z.object({
  agents: z.array(z.object({ agent_id: z.number().int(), name: z.string() })),
  sales_reps: z.array(z.string()),
});
export type CustomerListingOptions = z.infer<typeof customerListingOptions>;
