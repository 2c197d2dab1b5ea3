import {
  adminBillingItem,
  adminBillingItemList,
  adminBundle,
  adminBundleList,
  adminCategory,
  adminDomainDataEntry,
  adminDomainDataList,
  adminProduct,
  adminProductList,
  type AdminBillingItem,
  type AdminBillingItemList,
  type AdminBundle,
  type AdminBundleList,
  type AdminCategory,
  type AdminDomainDataEntry,
  type AdminDomainDataList,
  type AdminProduct,
  type AdminProductList,
  type BillingItemCreate,
  type BillingItemUpdate,
  type BundleCreate,
  type BundleUpdate,
  type CategoryInput,
  type DomainDataCreate,
  type DomainDataType,
  type DomainDataUpdate,
  type PriceOptionCreate,
  type PriceOptionUpdate,
  type ProductCreate,
  type ProductUpdate,
} from '@pos/domain';
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { catalogueKeys } from '../../../api/catalogue';
import { api, isApiError } from '../../../lib/api';

/*
 * Catalogue management (#/admin/catalogue, Admin; decision 126). Contracts: packages/domain contracts/catalogue-admin.ts.
 * The four lists are read whole (a catalogue is tens to hundreds of rows) and filtered, sorted and paged here.
 */

const B = '/api/admin/catalogue';

export const catalogueAdminKeys = {
  all: ['catalogue-admin'] as const,
  billingItems: () => [...catalogueAdminKeys.all, 'billing-items'] as const,
  bundles: () => [...catalogueAdminKeys.all, 'bundles'] as const,
  products: () => [...catalogueAdminKeys.all, 'products'] as const,
  domainData: (type: DomainDataType) => [...catalogueAdminKeys.all, 'domain-data', type] as const,
};

export function getBillingItemsQueryOptions() {
  return queryOptions({
    queryKey: catalogueAdminKeys.billingItems(),
    queryFn: async ({ signal }): Promise<AdminBillingItemList> =>
      adminBillingItemList.parse(await api.get<unknown>(`${B}/billingitems/{token}`, { signal })),
  });
}
export const useAdminBillingItems = () => useQuery(getBillingItemsQueryOptions());

export function getBundlesQueryOptions() {
  return queryOptions({
    queryKey: catalogueAdminKeys.bundles(),
    queryFn: async ({ signal }): Promise<AdminBundleList> =>
      adminBundleList.parse(await api.get<unknown>(`${B}/bundles/{token}`, { signal })),
  });
}
export const useAdminBundles = () => useQuery(getBundlesQueryOptions());

export function getProductsQueryOptions() {
  return queryOptions({
    queryKey: catalogueAdminKeys.products(),
    queryFn: async ({ signal }): Promise<AdminProductList> =>
      adminProductList.parse(await api.get<unknown>(`${B}/products/{token}`, { signal })),
  });
}
export const useAdminProducts = () => useQuery(getProductsQueryOptions());

export function getDomainDataQueryOptions(type: DomainDataType) {
  return queryOptions({
    queryKey: catalogueAdminKeys.domainData(type),
    queryFn: async ({ signal }): Promise<AdminDomainDataList> =>
      adminDomainDataList.parse(await api.get<unknown>(`${B}/domaindata/{token}`, { query: { type }, signal })),
  });
}
export const useAdminDomainData = (type: DomainDataType) => useQuery(getDomainDataQueryOptions(type));

/** After a save: this screen's lists and the order flow's catalogue reads (they show the new price at once). */
export async function refreshCatalogue(queryClient: QueryClient): Promise<void> {
  await Promise.all([
    queryClient.invalidateQueries({ queryKey: catalogueAdminKeys.all }),
    queryClient.invalidateQueries({ queryKey: catalogueKeys.all }),
  ]);
}

export const saveBillingItem = async (
  id: number | null,
  body: BillingItemCreate | BillingItemUpdate,
): Promise<AdminBillingItem> =>
  adminBillingItem.parse(
    id === null
      ? await api.post<unknown>(`${B}/billingitems/{token}`, body)
      : await api.put<unknown>(`${B}/billingitems/${id}/{token}`, body),
  );

export const saveCategory = async (id: number | null, body: CategoryInput): Promise<AdminCategory> =>
  adminCategory.parse(
    id === null
      ? await api.post<unknown>(`${B}/categories/{token}`, body)
      : await api.put<unknown>(`${B}/categories/${id}/{token}`, body),
  );

export const saveBundle = async (id: number | null, body: BundleCreate | BundleUpdate): Promise<AdminBundle> =>
  adminBundle.parse(
    id === null
      ? await api.post<unknown>(`${B}/bundles/{token}`, body)
      : await api.put<unknown>(`${B}/bundles/${id}/{token}`, body),
  );

export const savePriceOption = async (
  bundleId: number,
  optionId: number | null,
  body: PriceOptionCreate | PriceOptionUpdate,
): Promise<AdminBundle> =>
  adminBundle.parse(
    optionId === null
      ? await api.post<unknown>(`${B}/bundles/${bundleId}/options/{token}`, body)
      : await api.put<unknown>(`${B}/bundles/${bundleId}/options/${optionId}/{token}`, body),
  );

export const saveProduct = async (id: number | null, body: ProductCreate | ProductUpdate): Promise<AdminProduct> =>
  adminProduct.parse(
    id === null
      ? await api.post<unknown>(`${B}/products/{token}`, body)
      : await api.put<unknown>(`${B}/products/${id}/{token}`, body),
  );

export const saveDomainData = async (
  id: number | null,
  body: DomainDataCreate | DomainDataUpdate,
): Promise<AdminDomainDataEntry> =>
  adminDomainDataEntry.parse(
    id === null
      ? await api.post<unknown>(`${B}/domaindata/{token}`, body)
      : await api.put<unknown>(`${B}/domaindata/${id}/{token}`, body),
  );

// ── Mutations: one hook per save, each owning the refresh (issue 30, item 3) ──────────────────────────────────────

/**
 * One save of the catalogue screen: afterwards its lists and the order flow's catalogue reads are asked again (the
 * mutation settles once they are), and after a version conflict too (409: the dialog's record is shown as it is now).
 * The dialogs show a refusal themselves.
 */
function useCatalogueSave<TVariables, TData>(mutationFn: (variables: TVariables) => Promise<TData>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn,
    meta: { silentError: true },
    onSuccess: () => refreshCatalogue(queryClient),
    onError: async (error) => {
      if (isApiError(error) && error.status === 409) await refreshCatalogue(queryClient);
    },
  });
}

/** Add a billing item (`id` null) or edit one. */
export const useSaveBillingItem = () =>
  useCatalogueSave(({ id, body }: { id: number | null; body: BillingItemCreate | BillingItemUpdate }) =>
    saveBillingItem(id, body),
  );

/** Add a category (`id` null) or rename one. */
export const useSaveCategory = () =>
  useCatalogueSave(({ id, body }: { id: number | null; body: CategoryInput }) => saveCategory(id, body));

/** Add a bundle (`id` null) or edit one. */
export const useSaveBundle = () =>
  useCatalogueSave(({ id, body }: { id: number | null; body: BundleCreate | BundleUpdate }) => saveBundle(id, body));

/** Add a price option to a bundle (`optionId` null) or edit one. */
export const useSavePriceOption = () =>
  useCatalogueSave(
    ({
      bundleId,
      optionId,
      body,
    }: {
      bundleId: number;
      optionId: number | null;
      body: PriceOptionCreate | PriceOptionUpdate;
    }) => savePriceOption(bundleId, optionId, body),
  );

/** Add a product (`id` null) or edit one. */
export const useSaveProduct = () =>
  useCatalogueSave(({ id, body }: { id: number | null; body: ProductCreate | ProductUpdate }) => saveProduct(id, body));

/** Add an entry to a list of domain data (`id` null) or edit one. */
export const useSaveDomainData = () =>
  useCatalogueSave(({ id, body }: { id: number | null; body: DomainDataCreate | DomainDataUpdate }) =>
    saveDomainData(id, body),
  );
