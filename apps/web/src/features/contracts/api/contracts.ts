import {
  contractSignResult,
  contractView,
  orderContract,
  reauthorizeResult,
  reauthorizeView,
  type ContractSignRequest,
  type ReauthorizeRequest,
} from '@pos/domain';
import { queryOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/*
 * The merchant's pages (no session; the link token is in the path) and the paper-contract upload — see
 * packages/domain/src/contracts/order-contracts.ts.
 */

export async function getContract(tok: string, signal?: AbortSignal) {
  return contractView.parse(await api.get<unknown>('/api/public/contracts/{tok}', { params: { tok }, signal }));
}

/** A link's page is read fresh each time it opens (a link may be used or replaced meanwhile) and never retried. */
const LINK_PAGE = { retry: false, staleTime: 0, gcTime: 0 } as const;

export const merchantLinkKeys = {
  contract: (tok: string) => ['merchant-link', 'contract', tok] as const,
  reauthorize: (tok: string) => ['merchant-link', 'reauthorize', tok] as const,
};

export function getContractQueryOptions(tok: string) {
  return queryOptions({
    queryKey: merchantLinkKeys.contract(tok),
    queryFn: ({ signal }) => getContract(tok, signal),
    ...LINK_PAGE,
  });
}

export async function signContract(tok: string, body: ContractSignRequest) {
  return contractSignResult.parse(
    await api.post<unknown>('/api/public/contracts/{tok}/sign', body, { params: { tok } }),
  );
}

export async function getReauthorize(tok: string, signal?: AbortSignal) {
  return reauthorizeView.parse(
    await api.get<unknown>('/api/public/contracts/reauthorize/{tok}', { params: { tok }, signal }),
  );
}

export function getReauthorizeQueryOptions(tok: string) {
  return queryOptions({
    queryKey: merchantLinkKeys.reauthorize(tok),
    queryFn: ({ signal }) => getReauthorize(tok, signal),
    ...LINK_PAGE,
  });
}

export async function reauthorize(tok: string, body: ReauthorizeRequest) {
  return reauthorizeResult.parse(
    await api.post<unknown>('/api/public/contracts/reauthorize/{tok}', body, { params: { tok } }),
  );
}

export async function uploadContract(orderId: number, file: File) {
  const form = new FormData();
  form.append('file', file, file.name);
  return orderContract.parse(
    await api.post<unknown>('/api/customers/contracts/{orderId}/upload/{token}', form, { params: { orderId } }),
  );
}

/** Where the confirmation page finds what was just signed (this tab only). */
export const CONFIRMATION_KEY = 'contractConfirmation';
