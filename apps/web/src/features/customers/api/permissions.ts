import type { Permission } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { getPermissionsQueryOptions, type PermissionFlags } from '../../../api/permissions';

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

function toCustomerPermissions(flags: PermissionFlags): CustomerPermissions {
  return {
    canEdit: flags.customer_details_edit === true,
    canEditFeatures: flags.customer_features_edit === true,
    canEditLimitedFeatures: flags.customer_features_limited === true,
  };
}

/**
 * The permissions query itself, for a screen that waits for the answer (the edit plan page): the shared permission
 * check (api/permissions.ts; spec §6) of CUSTOMER_PAGE_PRIVILEGES, which also keeps customer_features_limited in
 * session storage (spec §3's flag).
 */
export function useCustomerPermissionsQuery() {
  return useQuery({ ...getPermissionsQueryOptions(CUSTOMER_PAGE_PRIVILEGES), select: toCustomerPermissions });
}

/** The permissions, NO_EDIT while they load or when the check fails. */
export function useCustomerPermissions(): CustomerPermissions {
  const { data } = useCustomerPermissionsQuery();
  return data ?? NO_EDIT;
}
