import { storeFile, storeFileList, type StoreFile, type StoreFileKind } from '@pos/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiUrl } from '../lib/api';

/*
 * A store's files (decision 160): store pictures, business licenses, reseller files — on the customer page's store
 * panel and the order flow's store-information step, so the operations live here once (convention 15):
 *   GET    /api/stores/{storeId}/files/{token}             the list
 *   POST   /api/stores/{storeId}/files/{token}             multipart: 'kind', then the file in 'file'
 *   GET    /api/stores/{storeId}/files/{fileId}/{token}    the file (?size=thumb: inline, for an <img>)
 *   DELETE /api/stores/{storeId}/files/{fileId}/{token}
 * Each mutation hook owns its invalidation: the store's list is asked again.
 */

export const storeFileKeys = {
  all: ['store-files'] as const,
  list: (storeId: number) => [...storeFileKeys.all, storeId] as const,
};

export function getStoreFilesQueryOptions(storeId: number) {
  return queryOptions({
    queryKey: storeFileKeys.list(storeId),
    queryFn: async ({ signal }): Promise<StoreFile[]> =>
      storeFileList.parse(
        await api.get<unknown>('/api/stores/{storeId}/files/{token}', { params: { storeId }, signal }),
      ).items,
  });
}

export function useStoreFiles(storeId: number) {
  return useQuery(getStoreFilesQueryOptions(storeId));
}

/** The URL of a file: as an attachment (Download), or inline for an image preview (thumb). */
export function storeFileUrl(file: Pick<StoreFile, 'store_id' | 'id'>, size: 'thumb' | 'full' = 'full'): string {
  const url = apiUrl('/api/stores/{storeId}/files/{fileId}/{token}', { storeId: file.store_id, fileId: file.id });
  return size === 'thumb' ? `${url}?size=thumb` : url;
}

export async function uploadStoreFile(storeId: number, kind: StoreFileKind, file: File): Promise<StoreFile> {
  const form = new FormData();
  // The kind first: the server reads the form's fields with the file.
  form.append('kind', kind);
  form.append('file', file, file.name);
  return storeFile.parse(await api.post<unknown>('/api/stores/{storeId}/files/{token}', form, { params: { storeId } }));
}

export function useUploadStoreFile(storeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, file }: { kind: StoreFileKind; file: File }) => uploadStoreFile(storeId, kind, file),
    meta: { silentError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storeFileKeys.list(storeId) }),
  });
}

export function useDeleteStoreFile(storeId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (fileId: number) => {
      await api.delete<unknown>('/api/stores/{storeId}/files/{fileId}/{token}', undefined, {
        params: { storeId, fileId },
      });
    },
    meta: { silentError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storeFileKeys.list(storeId) }),
  });
}
