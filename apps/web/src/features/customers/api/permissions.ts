import { permissionInfo, type Permission } from '@pos/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { getToken, setFlag } from '../../../lib/session';
import { customerKeys } from './keys';

/** What the customer screens may offer; the server checks every call again. */
export interface CustomerPermissions {
  /** customer_details_edit: every edit button of the customer page. */
  readonly canEdit: boolean;
  /** customer_features_edit: all features on /editplan. */
  readonly canEditFeatures: boolean;
  /** customer_features_limited: the limited feature set on /editplan. */
  readonly canEditLimitedFeatures: boolean;
}

export const CUSTOMER_PAGE_PRIVILEGES: readonly Permission[] = [
  'customer_details_edit',
  'customer_features_edit',
  'customer_features_limited',
];

/** Nothing may be changed until the server says otherwise. */
export const NO_EDIT: CustomerPermissions = { canEdit: false, canEditFeatures: false, canEditLimitedFeatures: false };

/**
 * GET /api/auth/permission/{token}?privileges=customer_details_edit,customer_features_edit,customer_features_limited
 * (spec §6: the web asks the server for a named set). customer_features_limited is kept in session storage
 * (spec §3's flag), as the guard does for the order flags.
 */
export async function getCustomerPermissions(signal?: AbortSignal): Promise<CustomerPermissions> {
  const info = permissionInfo.parse(
    await api.get<unknown>('/api/auth/permission/{token}', {
      query: { privileges: [...CUSTOMER_PAGE_PRIVILEGES] },
      signal,
    }),
  );
  const flags = info.permissions;
  setFlag('customer_features_limited', flags.customer_features_limited === true);
  return {
    canEdit: flags.customer_details_edit === true,
    canEditFeatures: flags.customer_features_edit === true,
    canEditLimitedFeatures: flags.customer_features_limited === true,
  };
}

export function getCustomerPermissionsQueryOptions() {
  return queryOptions({
    queryKey: customerKeys.permissions(getToken()),
    queryFn: ({ signal }) => getCustomerPermissions(signal),
    staleTime: 60_000,
  });
}

/** The permissions query itself, for a screen that waits for the answer (the edit plan page). */
export function useCustomerPermissionsQuery() {
  return useQuery(getCustomerPermissionsQueryOptions());
}

/** The permissions, NO_EDIT while they load or when the check fails. */
export function useCustomerPermissions(): CustomerPermissions {
  const { data } = useCustomerPermissionsQuery();
  return data ?? NO_EDIT;
}
