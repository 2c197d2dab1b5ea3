import {
  ORDER_STATUS,
  approvalDecisionsRequest,
  approvalDecisionsResult,
  approvalList,
  orderStatusReasonsInfo,
  type ApprovalDecisionsRequest,
  type ApprovalDecisionsResult,
  type ApprovalList,
} from '@pos/domain';
import { keepPreviousData, queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { LIVE_QUEUE } from '../../../lib/live-queue';
import { MONEY_ROOTS, useMoneyMutation } from '../../../api/money-views';

/*
 * The approvals screen's API (decision 121; contracts in @pos/domain/contracts/approvals.ts, every answer parsed):
 *   GET    /api/approvals/{token}?kind&amount_min&amount_max&older_than_days&requester&limit&offset
 *   POST $ /api/approvals/decisions/{token}  {items:[{kind,id,version}], decision, reason, status_reason_id?}
 *   GET    /api/customers/orderstatus/{token}?status=3  (the reasons an order's rejection needs)
 */

export const APPROVALS_PAGE_SIZE = 25;

export interface ApprovalFilters {
  /** memo, write_off, order or ''. */
  readonly kind: string;
  /** In dollars as typed ('' for none). */
  readonly amountMin: string;
  readonly amountMax: string;
  /** Waiting at least this many days ('' for any). */
  readonly olderThanDays: string;
  readonly requester: string;
}

export const NO_APPROVAL_FILTERS: ApprovalFilters = {
  kind: '',
  amountMin: '',
  amountMax: '',
  olderThanDays: '',
  requester: '',
};

export interface ApprovalListParams extends ApprovalFilters {
  /** 1-based. */
  readonly page: number;
}

const cents = (text: string) => (text.trim() === '' ? undefined : Math.round(Number(text.replace(/[$,]/g, '')) * 100));

export const approvalKeys = {
  all: MONEY_ROOTS.approvals,
  list: (p: ApprovalListParams) => [...approvalKeys.all, 'list', p] as const,
  rejectReasons: [...MONEY_ROOTS.approvals, 'reject-reasons'] as const,
};

export async function listApprovals(p: ApprovalListParams, signal?: AbortSignal): Promise<ApprovalList> {
  const info = await api.get<unknown>('/api/approvals/{token}', {
    query: {
      kind: p.kind || undefined,
      amount_min: cents(p.amountMin),
      amount_max: cents(p.amountMax),
      older_than_days: p.olderThanDays.trim() || undefined,
      requester: p.requester.trim() || undefined,
      limit: APPROVALS_PAGE_SIZE,
      offset: (p.page - 1) * APPROVALS_PAGE_SIZE,
    },
    signal,
  });
  return approvalList.parse(info);
}

export function getApprovalListQueryOptions(p: ApprovalListParams) {
  return queryOptions({
    queryKey: approvalKeys.list(p),
    queryFn: ({ signal }) => listApprovals(p, signal),
    placeholderData: keepPreviousData,
    ...LIVE_QUEUE,
  });
}

export async function decideApprovals(
  body: ApprovalDecisionsRequest,
  idempotencyKey: string,
): Promise<ApprovalDecisionsResult> {
  return approvalDecisionsResult.parse(
    await api.post<unknown>('/api/approvals/decisions/{token}', approvalDecisionsRequest.parse(body), {
      idempotencyKey,
    }),
  );
}

/** Approve or reject several requests at once; every money view refreshes after the answer (or the refusal). */
export function useDecideApprovals() {
  return useMoneyMutation({
    mutationFn: ({ body, idempotencyKey }: { body: ApprovalDecisionsRequest; idempotencyKey: string }) =>
      decideApprovals(body, idempotencyKey),
  });
}

/** The reasons an order may be rejected with (status 3). */
export function getRejectReasonsQueryOptions() {
  return queryOptions({
    queryKey: approvalKeys.rejectReasons,
    queryFn: async ({ signal }) => {
      const info = orderStatusReasonsInfo.parse(
        await api.get<unknown>('/api/customers/orderstatus/{token}', {
          query: { status: ORDER_STATUS.REJECTED },
          signal,
        }),
      );
      return info.statuses.find((s) => s.status === ORDER_STATUS.REJECTED)?.reasons ?? [];
    },
    staleTime: 300_000,
  });
}
