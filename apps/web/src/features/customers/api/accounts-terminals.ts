import {
  terminal,
  terminalList,
  terminalValidation,
  type RetireTerminalRequest,
  type Terminal,
  type TerminalList,
  type TerminalUpdateRequest,
  type TerminalValidation,
} from '@pos/domain';
import { keepPreviousData, queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { accountPath, compactQuery, useAccountMutation } from './accounts';
import { accountKeys } from './accounts-keys';

/*
 *   GET    …/customerterminals?storeid&limit&offset&sort                      → terminalList
 *   PUT    …/customerterminals/{terminalId}  {elmer_id, under_transfer, version} | {pos_cc_processor_serial_number, version}
 *   DELETE /api/customers/{token}/customerterminals/{terminalId}  {reason_id, version}   → terminal (retired)
 *   GET    /api/customers/{token}/terminals/validate/{elmer_id}/{serial_number}        → terminalValidation
 */

export interface TerminalFilter {
  readonly storeId: number;
  readonly limit: number;
  readonly offset: number;
  readonly sort?: string;
}

export async function getTerminals(
  customerId: number,
  filter: TerminalFilter,
  signal?: AbortSignal,
): Promise<TerminalList> {
  const query = compactQuery({
    storeid: filter.storeId,
    limit: filter.limit,
    offset: filter.offset,
    sort: filter.sort,
  });
  return terminalList.parse(
    await api.get<unknown>(accountPath('/customerterminals'), { params: { id: customerId }, query, signal }),
  );
}

export function getTerminalsQueryOptions(customerId: number, filter: TerminalFilter) {
  return queryOptions({
    queryKey: accountKeys.terminals(customerId, filter),
    queryFn: ({ signal }) => getTerminals(customerId, filter, signal),
    placeholderData: keepPreviousData,
  });
}

export function useTerminals(customerId: number, filter: TerminalFilter | null) {
  return useQuery({
    ...getTerminalsQueryOptions(customerId, filter ?? { storeId: 0, limit: 1, offset: 0 }),
    enabled: filter !== null,
  });
}

export interface TerminalUpdate {
  readonly terminalId: number;
  readonly body: TerminalUpdateRequest;
}

export async function updateTerminal(customerId: number, { terminalId, body }: TerminalUpdate): Promise<Terminal> {
  return terminal.parse(
    await api.put<unknown>(accountPath('/customerterminals/{terminalId}'), body, {
      params: { id: customerId, terminalId },
    }),
  );
}

export function useUpdateTerminal(customerId: number) {
  return useAccountMutation(customerId, (input: TerminalUpdate) => updateTerminal(customerId, input));
}

export interface TerminalRetirement {
  readonly terminalId: number;
  readonly body: RetireTerminalRequest;
}

/** Retire: DELETE with the reason and version in the body. */
export async function retireTerminal({ terminalId, body }: TerminalRetirement): Promise<Terminal> {
  return terminal.parse(
    await api.delete<unknown>('/api/customers/{token}/customerterminals/{terminalId}', body, {
      params: { terminalId },
    }),
  );
}

export function useRetireTerminal(customerId: number) {
  return useAccountMutation(customerId, retireTerminal);
}

export interface TerminalPair {
  readonly elmerId: string;
  readonly serialNumber: string;
}

/** May this terminal id and serial number be used together (e.g. before a swap)? */
export async function validateTerminal({ elmerId, serialNumber }: TerminalPair): Promise<TerminalValidation> {
  return terminalValidation.parse(
    await api.get<unknown>('/api/customers/{token}/terminals/validate/{a}/{b}', {
      params: { a: elmerId.trim(), b: serialNumber.trim() },
    }),
  );
}

export function useValidateTerminal() {
  return useMutation({ mutationFn: validateTerminal, meta: { silentError: true } });
}
