import { useMutation, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { customerKeys } from './customers';

/*
 * Every view that shows money (issue 30, item 3): the cache root of each. A feature's query keys start with its
 * root here, so a money mutation — a receipt, a refund, a memo approved, an invoice reversed, a card charged —
 * refreshes every list and page that shows a balance, an invoice, a receipt or an approval in one call
 * (refreshMoneyViews), whichever screen made it.
 */
export const MONEY_ROOTS = {
  invoices: ['invoices'],
  receipts: ['receipts'],
  approvals: ['approvals'],
  failedPayments: ['failed-payments'],
  accounting: ['accounting'],
  reports: ['reports'],
  customerListing: ['customer-listing'],
  returns: ['returns'],
  winback: ['breath-of-life'],
} as const;

/**
 * After money moved (or a request to move it was made or decided): every money view is asked again — those on
 * screen at once, the others when next shown — with the customer's own page (its balance, invoices, transactions),
 * or every customer's when the customer is not known.
 */
export async function refreshMoneyViews(queryClient: QueryClient, customerId?: number | null): Promise<void> {
  await Promise.all([
    ...Object.values(MONEY_ROOTS).map((queryKey) => queryClient.invalidateQueries({ queryKey })),
    queryClient.invalidateQueries({
      queryKey: customerId ? customerKeys.customer(customerId) : customerKeys.all,
    }),
  ]);
}

/**
 * The mutation hook of one money operation (issue 30, item 3): a feature's `api/` exports one per operation
 * (`useDecideApprovals`, `useRecordReceipt`, …) built on this, so the hook — not the page — owns what is refreshed:
 * every money view, whether the call succeeded or was refused (a refusal often means someone else moved the money
 * first, and the screen should show it). The page passes its own toasts to `mutate(vars, { onSuccess, onError })`.
 */
export function useMoneyMutation<TVariables, TData>(options: {
  readonly mutationFn: (variables: TVariables) => Promise<TData>;
  /** The customer whose page shows this money, when the call knows it (else every customer's page refreshes). */
  readonly customerOf?: (variables: TVariables, data: TData | undefined) => number | null | undefined;
  /** Errors are shown by the caller (a dialog's own message), not by the global handler. */
  readonly silentError?: boolean;
}) {
  const queryClient = useQueryClient();
  const { mutationFn, customerOf, silentError = true } = options;
  return useMutation({
    mutationFn,
    meta: silentError ? { silentError: true } : undefined,
    onSettled: (data, _error, variables) => refreshMoneyViews(queryClient, customerOf?.(variables, data) ?? null),
  });
}
