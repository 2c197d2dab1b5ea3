import {
  customerSearchResult,
  taxCertificate,
  taxCertificateList,
  uploadInfo,
  type CustomerSearchRecord,
  type TaxCertificate,
  type TaxCertificateCreate,
  type TaxCertificateList,
  type UploadInfo,
  isMerchantSearchReady,
} from '@pos/domain';
import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/*
 * #/arizona (issue 17 point 6, decision 127):
 *   GET  /api/customers/{token}/all?search|storeid&limit        → stores to choose (Arizona ones are offered)
 *   GET  /api/taxcertificates/{token}?store_id= | ?expiring=30  → {today, items}
 *   POST /api/taxcertificates/upload/{token}  multipart field `certificate` → uploadInfo
 *   POST /api/taxcertificates/{token}  {store_id, kind, certificate_number, expires_on, upload_id} → certificate
 *   POST /api/taxcertificates/{id}/revoke/{token}                → certificate
 */

export const arizonaKeys = {
  all: ['arizona'] as const,
  stores: (text: string) => [...arizonaKeys.all, 'stores', text] as const,
  certificates: () => [...arizonaKeys.all, 'certificates'] as const,
  ofStore: (storeId: number) => [...arizonaKeys.certificates(), 'store', storeId] as const,
  expiring: (days: number) => [...arizonaKeys.certificates(), 'expiring', days] as const,
};

export async function findStores(text: string, signal?: AbortSignal): Promise<CustomerSearchRecord[]> {
  const term = text.trim();
  const query = /^\d+$/.test(term) ? { storeid: term } : { search: term };
  const info = await api.get<unknown>('/api/customers/{token}/all', { query: { ...query, limit: 20 }, signal });
  return customerSearchResult.parse(info).items.filter((r) => r.store_id !== null);
}

export function findStoresQueryOptions(text: string) {
  return queryOptions({
    queryKey: arizonaKeys.stores(text.trim()),
    queryFn: ({ signal }) => findStores(text, signal),
    enabled: isMerchantSearchReady(text),
    staleTime: 30_000,
  });
}

export async function getCertificates(
  query: { store_id: number } | { expiring: number },
  signal?: AbortSignal,
): Promise<TaxCertificateList> {
  return taxCertificateList.parse(await api.get<unknown>('/api/taxcertificates/{token}', { query, signal }));
}

export function storeCertificatesQueryOptions(storeId: number) {
  return queryOptions({
    queryKey: arizonaKeys.ofStore(storeId),
    queryFn: ({ signal }) => getCertificates({ store_id: storeId }, signal),
  });
}

export function expiringCertificatesQueryOptions(days: number) {
  return queryOptions({
    queryKey: arizonaKeys.expiring(days),
    queryFn: ({ signal }) => getCertificates({ expiring: days }, signal),
  });
}

export async function uploadCertificateFile(file: File): Promise<UploadInfo> {
  const form = new FormData();
  form.append('certificate', file, file.name);
  return uploadInfo.parse(await api.post<unknown>('/api/taxcertificates/upload/{token}', form));
}

export async function recordCertificate(body: TaxCertificateCreate): Promise<TaxCertificate> {
  return taxCertificate.parse(await api.post<unknown>('/api/taxcertificates/{token}', body));
}

export async function revokeCertificate(id: number): Promise<TaxCertificate> {
  return taxCertificate.parse(
    await api.post<unknown>('/api/taxcertificates/{id}/revoke/{token}', {}, { params: { id } }),
  );
}

/** Send a certificate's file: the answer names the upload a record refers to (nothing cached changes). */
export function useUploadCertificateFile() {
  return useMutation({ mutationFn: uploadCertificateFile, meta: { silentError: true } });
}

/** Record a certificate: every certificate list refreshes. The page shows a refusal itself. */
export function useRecordCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: recordCertificate,
    meta: { silentError: true },
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: arizonaKeys.certificates() });
    },
  });
}

/** Revoke: every certificate list refreshes. */
export function useRevokeCertificate() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: revokeCertificate,
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: arizonaKeys.certificates() });
    },
  });
}
