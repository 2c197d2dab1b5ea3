import { trialBalance, type CurrencyCode, type TrialBalance } from '@pos/domain';
import { keepPreviousData, queryOptions, useMutation } from '@tanstack/react-query';
import { MONEY_ROOTS } from '../../../api/money-views';
import { api } from '../../../lib/api';
import { downloadFile } from '../../../lib/download';

/*
 * Month-end accounting (decision 146; contracts in @pos/domain/contracts/accounting.ts):
 *   GET /api/accounting/trial-balance/{token}?month&currency[&format=csv]
 *   GET /api/accounting/general-ledger/{token}?from&to&currency  (CSV)
 */

export const accountingKeys = {
  all: MONEY_ROOTS.accounting,
  trialBalance: (month: string, currency: CurrencyCode) =>
    [...accountingKeys.all, 'trial-balance', month, currency] as const,
};

export function getTrialBalanceQueryOptions(month: string, currency: CurrencyCode) {
  return queryOptions({
    queryKey: accountingKeys.trialBalance(month, currency),
    queryFn: async ({ signal }): Promise<TrialBalance> =>
      trialBalance.parse(
        await api.get<unknown>('/api/accounting/trial-balance/{token}', { query: { month, currency }, signal }),
      ),
    placeholderData: keepPreviousData,
  });
}

export function downloadTrialBalanceCsv(month: string, currency: CurrencyCode): Promise<Blob> {
  return api.get<Blob>('/api/accounting/trial-balance/{token}', {
    query: { month, currency, format: 'csv' },
    responseType: 'blob',
  });
}

export function downloadGeneralLedgerCsv(from: string, to: string, currency: CurrencyCode): Promise<Blob> {
  return api.get<Blob>('/api/accounting/general-ledger/{token}', {
    query: { from, to, currency },
    responseType: 'blob',
  });
}

/** Download the month's trial balance as CSV and save it (nothing cached changes). */
export function useDownloadTrialBalanceCsv() {
  return useMutation({
    mutationFn: async ({ month, currency }: { month: string; currency: CurrencyCode }) =>
      downloadFile(`trial-balance-${currency}-${month}.csv`, await downloadTrialBalanceCsv(month, currency)),
    meta: { silentError: true },
  });
}

/** Download the general-ledger lines of a range of days as CSV and save it (nothing cached changes). */
export function useDownloadGeneralLedgerCsv() {
  return useMutation({
    mutationFn: async ({ from, to, currency }: { from: string; to: string; currency: CurrencyCode }) =>
      downloadFile(`general-ledger-${currency}-${from}-${to}.csv`, await downloadGeneralLedgerCsv(from, to, currency)),
    meta: { silentError: true },
  });
}
