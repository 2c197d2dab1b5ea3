import { storeFile, storeFileList, type StoreFile, type StoreFileKind } from '@pos/domain';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, apiUrl } from '../lib/api';

/*
 * A store's files (decision 160): store pictures, business licenses, reseller files — on the customer page's store
 * panel and the order flow's store-information step, so the operations live here once (convention 15). Their owner is
 * a store, or a new merchant's order until Complete gives its files the new store:
 *   GET    /api/stores/{storeId}/files/{token}             the list           (/api/orders/{orderId}/files/{token})
 *   POST   /api/stores/{storeId}/files/{token}             multipart: 'kind', then the file in 'file'
 *   GET    /api/stores/{storeId}/files/{fileId}/{token}    the file (?size=thumb: inline, for an <img>)
 *   DELETE /api/stores/{storeId}/files/{fileId}/{token}
 * Each mutation hook owns its invalidation: the owner's list is asked again.
 */

/** Whose files: a store's, or a new merchant's order's (decision 160). */
export interface StoreFileOwner {
  readonly kind: 'store' | 'order';
  readonly id: number;
}

const PATHS = {
  store: { list: '/api/stores/{storeId}/files/{token}', file: '/api/stores/{storeId}/files/{fileId}/{token}' },
  order: { list: '/api/orders/{orderId}/files/{token}', file: '/api/orders/{orderId}/files/{fileId}/{token}' },
} as const;

/** The path parameter naming the owner. */
const ownerParams = (owner: StoreFileOwner): Record<string, number> =>
  owner.kind === 'store' ? { storeId: owner.id } : { orderId: owner.id };

export const storeFileKeys = {
  all: ['store-files'] as const,
  list: (owner: StoreFileOwner) => [...storeFileKeys.all, owner.kind, owner.id] as const,
};

export function getStoreFilesQueryOptions(owner: StoreFileOwner) {
  return queryOptions({
    queryKey: storeFileKeys.list(owner),
    queryFn: async ({ signal }): Promise<StoreFile[]> =>
      storeFileList.parse(await api.get<unknown>(PATHS[owner.kind].list, { params: ownerParams(owner), signal })).items,
  });
}

export function useStoreFiles(owner: StoreFileOwner) {
  return useQuery(getStoreFilesQueryOptions(owner));
}

/** The URL of an owner's file: as an attachment (Download), or inline for an image preview (thumb). */
export function storeFileUrl(
  owner: StoreFileOwner,
  file: Pick<StoreFile, 'id'>,
  size: 'thumb' | 'full' = 'full',
): string {
  const url = apiUrl(PATHS[owner.kind].file, { ...ownerParams(owner), fileId: file.id });
  return size === 'thumb' ? `${url}?size=thumb` : url;
}

export async function uploadStoreFile(owner: StoreFileOwner, kind: StoreFileKind, file: File): Promise<StoreFile> {
  const form = new FormData();
  // The kind first: the server reads the form's fields with the file.
  form.append('kind', kind);
  form.append('file', file, file.name);
  return storeFile.parse(await api.post<unknown>(PATHS[owner.kind].list, form, { params: ownerParams(owner) }));
}

export function useUploadStoreFile(owner: StoreFileOwner) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ kind, file }: { kind: StoreFileKind; file: File }) => uploadStoreFile(owner, kind, file),
    meta: { silentError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storeFileKeys.list(owner) }),
  });
}

export function useDeleteStoreFile(owner: StoreFileOwner) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (fileId: number) => {
      await api.delete<unknown>(PATHS[owner.kind].file, undefined, { params: { ...ownerParams(owner), fileId } });
    },
    meta: { silentError: true },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: storeFileKeys.list(owner) }),
  });
}
