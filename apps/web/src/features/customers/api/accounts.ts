import type { MutationFunction } from '@tanstack/react-query';
import type { QueryParams } from '../../../lib/api';
import { useCustomerMutation } from './customers';

/*
 * The account tabs' and edit pages' API layer (issue 6, contracts/customer-accounts.ts). This file holds what
 * every area shares; the areas are accounts-terminals, accounts-plans, accounts-billing, accounts-money and
 * accounts-payment. "…" is /api/customers/{id}/{token} with id = the customer id. The customer record
 * (useCustomer, api/customers.ts), domain data such as retire reasons (useDomainData, customers.ts) and
 * permissions (useCustomerPermissionsQuery, permissions.ts) are the customer page's own calls.
 */

/** "…" + `rest`: the path of a customer's account resource. */
export function accountPath(rest: string): string {
  return `/api/customers/{id}/{token}${rest}`;
}

/** A list query's parameters without the ones left empty. */
export function compactQuery(query: Record<string, string | number | boolean | null | undefined>): QueryParams {
  return Object.fromEntries(Object.entries(query).filter(([, v]) => v !== undefined && v !== null && v !== ''));
}

/**
 * A change to one customer's accounts (useCustomerMutation): afterwards everything of that customer is
 * fetched again, and the mutation settles once it is, so the screen shows the changed rows when the dialog
 * closes.
 */
export function useAccountMutation<TVariables, TResult>(
  customerId: number,
  mutationFn: MutationFunction<TResult, TVariables>,
) {
  return useCustomerMutation(customerId, mutationFn, { waitForRefresh: true });
}
