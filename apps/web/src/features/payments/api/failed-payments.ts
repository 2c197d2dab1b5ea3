import {
  failedPaymentSearchResult,
  jobAcceptedInfo,
  recoveryReport,
  transactionsSnsOutput,
  transactionsSnsRequest,
  type FailedPaymentItem,
  type FailedPaymentSearchResult,
  type RecoveryReport,
  type TransactionSnsAction,
  type TransactionsSnsOutput,
} from '@pos/domain';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { waitForJob } from '../../../api/jobs';
import { MONEY_ROOTS, useMoneyMutation } from '../../../api/money-views';
import { api } from '../../../lib/api';
import { datedFileName } from '../../../lib/download';
import { streamDownload, type StreamProgress } from '../../../lib/stream-download';
import { LIVE_QUEUE } from '../../../lib/live-queue';

/*
 * The failed-payments screen's API (decision 117; contracts in @pos/domain/contracts/failed-payments.ts and jobs.ts,
 * every answer parsed):
 *   GET  /api/payments/failed/{token}?kind&reason&country&amount_min&amount_max&age&state&q&sort&limit&offset
 *        [&format=csv]
 *   GET  /api/payments/recovery/{token}?month=YYYY-MM
 *   POST /api/customers/transactions/sns/{token} {customer_id, transaction_ids, action}   → 202 {jobId}
 *   GET  /api/jobs/{jobId}/{token}  (api/jobs.ts waitForJob)
 * The actions go through useFailedPaymentAction, which refreshes every money view.
 */

export const FAILED_PAGE_SIZE = 25;

export interface FailedFilters {
  /** soft, hard or '' for any. */
  readonly kind: string;
  /** A decline code or ''. */
  readonly reason: string;
  /** US, CA or ''. */
  readonly country: string;
  /** In dollars as typed ('' for none). */
  readonly amountMin: string;
  readonly amountMax: string;
  /** Attempted within this many days ('' for any). */
  readonly age: string;
  /** A dunning state or ''. */
  readonly state: string;
  readonly q: string;
}

export const NO_FAILED_FILTERS: FailedFilters = {
  kind: '',
  reason: '',
  country: '',
  amountMin: '',
  amountMax: '',
  age: '',
  state: '',
  q: '',
};

export interface FailedListParams extends FailedFilters {
  /** 1-based. */
  readonly page: number;
  /** 'amount_cents' or '-amount_cents' (FAILED_PAYMENT_SORT_FIELDS); null: newest first. */
  readonly sort: string | null;
}

/** '12.5' → 1250; '' → undefined (the form checks the text before it is applied). */
export function dollarsToCents(text: string): number | undefined {
  const t = text.trim();
  return t === '' ? undefined : Math.round(Number(t) * 100);
}

function filterQuery(f: FailedFilters) {
  return {
    kind: f.kind || undefined,
    reason: f.reason || undefined,
    country: f.country || undefined,
    amount_min: dollarsToCents(f.amountMin),
    amount_max: dollarsToCents(f.amountMax),
    age: f.age.trim() || undefined,
    state: f.state || undefined,
    q: f.q.trim() || undefined,
  };
}

export const failedPaymentKeys = {
  all: MONEY_ROOTS.failedPayments,
  list: (p: FailedListParams) => [...failedPaymentKeys.all, 'list', p] as const,
  recovery: (month: string | null) => [...failedPaymentKeys.all, 'recovery', month] as const,
};

export async function searchFailedPayments(
  p: FailedListParams,
  signal?: AbortSignal,
): Promise<FailedPaymentSearchResult> {
  const info = await api.get<unknown>('/api/payments/failed/{token}', {
    query: {
      ...filterQuery(p),
      limit: FAILED_PAGE_SIZE,
      offset: (p.page - 1) * FAILED_PAGE_SIZE,
      sort: p.sort ?? undefined,
    },
    signal,
  });
  return failedPaymentSearchResult.parse(info);
}

export function getFailedPaymentListQueryOptions(p: FailedListParams) {
  return queryOptions({
    queryKey: failedPaymentKeys.list(p),
    queryFn: ({ signal }) => searchFailedPayments(p, signal),
    placeholderData: keepPreviousData,
    ...LIVE_QUEUE,
  });
}

/** Every matching failed payment as CSV (the server streams all rows), saved with rows-so-far progress. */
export function exportFailedPayments(
  p: FailedListParams,
  options: { signal?: AbortSignal; onProgress?: (progress: StreamProgress) => void } = {},
): Promise<StreamProgress> {
  return streamDownload({
    path: '/api/payments/failed/{token}',
    query: { ...filterQuery(p), sort: p.sort ?? undefined, format: 'csv' },
    fileName: datedFileName('failed-payments', 'csv'),
    ...options,
  });
}

export async function getRecovery(month: string | null, signal?: AbortSignal): Promise<RecoveryReport> {
  return recoveryReport.parse(
    await api.get<unknown>('/api/payments/recovery/{token}', { query: { month: month ?? undefined }, signal }),
  );
}

export function getRecoveryQueryOptions(month: string | null) {
  return queryOptions({
    queryKey: failedPaymentKeys.recovery(month),
    queryFn: ({ signal }) => getRecovery(month, signal),
  });
}

/** The queue call takes one customer's transactions, at most this many at once. */
const SNS_BATCH = 100;

export interface ActionRequest {
  readonly customerId: number;
  readonly transactionIds: readonly number[];
}

/**
 * Ask for an action on failed payments: one queue call per customer (and per 100 transactions). Answers the job ids
 * in the order of the calls.
 */
export async function requestTransactionAction(
  action: TransactionSnsAction,
  rows: readonly Pick<FailedPaymentItem, 'customer_id' | 'transaction_id'>[],
): Promise<string[]> {
  const byCustomer = new Map<number, number[]>();
  for (const r of rows) byCustomer.set(r.customer_id, [...(byCustomer.get(r.customer_id) ?? []), r.transaction_id]);
  const jobIds: string[] = [];
  for (const [customerId, ids] of byCustomer) {
    for (let i = 0; i < ids.length; i += SNS_BATCH) {
      const body = transactionsSnsRequest.parse({
        customer_id: customerId,
        transaction_ids: ids.slice(i, i + SNS_BATCH),
        action,
      });
      const { jobId } = jobAcceptedInfo.parse(await api.post<unknown>('/api/customers/transactions/sns/{token}', body));
      jobIds.push(jobId);
    }
  }
  return jobIds;
}

export interface FailedPaymentActionInput {
  readonly action: TransactionSnsAction;
  readonly rows: readonly FailedPaymentItem[];
}

/**
 * Retry now, waive the fee, send the update link or stop retries on failed payments (decision 117): the queue calls,
 * then each job followed until it finishes (`onRequested` once the calls are accepted). Answers what the worker did
 * to each payment (a job of an older worker may answer nothing); every money view refreshes, done or refused.
 */
export function useFailedPaymentAction(
  options: { readonly onRequested?: (input: FailedPaymentActionInput, jobIds: readonly string[]) => void } = {},
) {
  const { onRequested } = options;
  return useMoneyMutation({
    mutationFn: async (
      input: FailedPaymentActionInput,
    ): Promise<{ jobIds: string[]; results: TransactionsSnsOutput['results'] }> => {
      const jobIds = await requestTransactionAction(input.action, input.rows);
      onRequested?.(input, jobIds);
      const outputs = await Promise.all(jobIds.map((id) => waitForJob(id, { timeoutMs: 60_000 })));
      const results = outputs.flatMap((o) => transactionsSnsOutput.safeParse(o).data?.results ?? []);
      return { jobIds, results };
    },
    customerOf: ({ rows }) => (new Set(rows.map((r) => r.customer_id)).size === 1 ? rows[0]!.customer_id : null),
  });
}
