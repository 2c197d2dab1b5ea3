import {
  adminTaxRates,
  adminTaxState,
  type AdminTaxRateCreateInput,
  type AdminTaxRates,
  type AdminTaxState,
} from '@pos/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from './keys';

/*
 * GET  /api/admin/taxes/{token}  → {today, states: [{country, state, state_name, current, scheduled}]}   (Admin)
 * POST /api/admin/taxes/{token}  {country, state, effective_on, components} → 201 the state   (decision 127)
 */

export async function getTaxRates(signal?: AbortSignal): Promise<AdminTaxRates> {
  return adminTaxRates.parse(await api.get<unknown>('/api/admin/taxes/{token}', { signal }));
}

export function getTaxRatesQueryOptions() {
  return queryOptions({ queryKey: adminKeys.taxRates(), queryFn: ({ signal }) => getTaxRates(signal) });
}

export function useTaxRates() {
  return useQuery(getTaxRatesQueryOptions());
}

export async function addTaxRate(body: AdminTaxRateCreateInput): Promise<AdminTaxState> {
  return adminTaxState.parse(await api.post<unknown>('/api/admin/taxes/{token}', body));
}

/** A new rate version: the list refreshes. */
export function useAddTaxRate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: addTaxRate,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.taxRates() });
    },
  });
}
