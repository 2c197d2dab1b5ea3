import { validateInfo, type ValidateInfo } from '@pos/domain';
import { api } from '../../../lib/api';
import { setFlag } from '../../../lib/session';

/**
 * GET /api/auth/validate/{token}. The answer's `maketoken` sets the distributor-token flag (spec §4), which
 * hides Signout and closes exactly /order.
 */
export async function validateSession(): Promise<ValidateInfo> {
  const info = validateInfo.parse(await api.get<unknown>('/api/auth/validate/{token}'));
  setFlag('distributor_token', info.maketoken);
  return info;
}
