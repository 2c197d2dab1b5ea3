import { permissionInfo, type Permission } from '@pos/domain';
import { api } from '../../../lib/api';
import { setFlag, type SessionFlag } from '../../../lib/session';

export type PermissionFlags = Readonly<Record<string, boolean>>;

/** Spec §6: these results of a permission check are cached in session storage. */
const CACHED: readonly (Permission & SessionFlag)[] = ['create_distributor_orders', 'search_orders_edit'];

/**
 * GET /api/auth/permission/{token}?privileges=a,b → `{a: true, b: false}` (spec §6, §7). Caches
 * create_distributor_orders and search_orders_edit in session storage whenever the answer includes them.
 */
export async function checkPermissions(privileges: readonly Permission[]): Promise<PermissionFlags> {
  const info = permissionInfo.parse(
    await api.get<unknown>('/api/auth/permission/{token}', { query: { privileges: [...privileges] } }),
  );
  for (const flag of CACHED) {
    const granted = info.permissions[flag];
    if (granted !== undefined) setFlag(flag, granted);
  }
  return info.permissions;
}

/** Spec §6: a check passes when any one of the listed privileges is granted. */
export function anyGranted(flags: PermissionFlags, anyOf: readonly Permission[]): boolean {
  return anyOf.some((p) => flags[p] === true);
}
