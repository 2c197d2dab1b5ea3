import {
  bankListInfo,
  crmAccessoriesOrderRequest,
  jobAcceptedInfo,
  uploadInfo,
  type BankListItem,
  type CrmAccessoriesOrderRequest,
  type JobAcceptedInfo,
  type MerchantCountryCode,
  type UploadInfo,
} from '@pos/domain';
import { queryOptions, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { notifyError } from '../lib/notify';
import { accountKeys } from './accounts-keys';

/*
 * Calls the account tabs and edit pages make that exist outside the customer-accounts module:
 *   POST /api/zoho/accessoriesorder/{token}      crmAccessoriesOrderRequest         → 202 {jobId}
 *   POST /api/customers/paymentinstruments/check/addimage/{token}   multipart 'checkimage'  → 201 uploadInfo
 *   POST /api/customers/paymentinstruments/achcad/addimage/{token}  multipart 'achcadimage' → 201 uploadInfo
 *   GET  /api/customers/paymentinstruments/list/bank/{token}?country=                → {banks}
 * Push license and the payment-update link are in actions.ts; permissions in permissions.ts.
 */

/* The mutations below show their own failure toast (lib/notify), the global one is off. */

export async function requestCrmFeatureChange(input: CrmAccessoriesOrderRequest): Promise<JobAcceptedInfo> {
  const body = crmAccessoriesOrderRequest.parse(input);
  return jobAcceptedInfo.parse(await api.post<unknown>('/api/zoho/accessoriesorder/{token}', body));
}

export function useRequestCrmFeatureChange() {
  return useMutation({ mutationFn: requestCrmFeatureChange, meta: { silentError: true }, onError: notifyError });
}

export type ImageUploadKind = 'check' | 'achcad';

const UPLOADS: Readonly<Record<ImageUploadKind, { path: string; field: string }>> = {
  check: { path: '/api/customers/paymentinstruments/check/addimage/{token}', field: 'checkimage' },
  achcad: { path: '/api/customers/paymentinstruments/achcad/addimage/{token}', field: 'achcadimage' },
};

/** A file picked with the FilePicker (base64) back to bytes for a multipart upload. */
export function fileFromBase64(picked: {
  readonly name: string;
  readonly type: string;
  readonly base64: string;
}): File {
  const binary = atob(picked.base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new File([bytes], picked.name, { type: picked.type || 'application/octet-stream' });
}

/** Upload a check image or an ACH/CAD image (multipart, one file in the kind's field). */
export async function uploadPaymentImage(kind: ImageUploadKind, file: File): Promise<UploadInfo> {
  const form = new FormData();
  form.append(UPLOADS[kind].field, file, file.name);
  return uploadInfo.parse(await api.post<unknown>(UPLOADS[kind].path, form));
}

export function useUploadPaymentImage() {
  return useMutation({
    mutationFn: ({ kind, file }: { kind: ImageUploadKind; file: File }) => uploadPaymentImage(kind, file),
    meta: { silentError: true },
  });
}

export function getBanksQueryOptions(country: MerchantCountryCode) {
  return queryOptions({
    queryKey: accountKeys.banks(country),
    queryFn: async ({ signal }): Promise<BankListItem[]> =>
      bankListInfo.parse(
        await api.get<unknown>('/api/customers/paymentinstruments/list/bank/{token}', { query: { country }, signal }),
      ).banks,
    staleTime: 10 * 60_000,
  });
}

export function useBanks(country: MerchantCountryCode) {
  return useQuery(getBanksQueryOptions(country));
}
