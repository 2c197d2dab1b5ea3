import { referralLookup, type ReferralLookup } from '@pos/domain';
import { queryOptions } from '@tanstack/react-query';
import { api, isApiError } from '../../../lib/api';

/*
 * The Look-ups screen's referral (decision 161; contract referralLookup in @pos/domain contracts/catalogue.ts):
 *   GET /api/customers/referrals/{refId}/{token} → an active referral by its code (REF-…) or number; 404 when there is
 *   none the session may see (an agent's session sees only its own agents' referrals).
 */

export const referralKeys = {
  all: ['referrals'] as const,
  one: (refId: string) => [...referralKeys.all, refId.trim().toUpperCase()] as const,
};

export async function getReferral(refId: string, signal?: AbortSignal): Promise<ReferralLookup> {
  return referralLookup.parse(
    await api.get<unknown>('/api/customers/referrals/{refId}/{token}', { params: { refId: refId.trim() }, signal }),
  );
}

/** The referral `refId` names; its "not found" is the screen's to say in words, so no error toast. */
export function getReferralQueryOptions(refId: string) {
  return queryOptions({
    queryKey: referralKeys.one(refId),
    queryFn: ({ signal }) => getReferral(refId, signal),
    enabled: refId.trim() !== '',
    meta: { silentError: true },
  });
}

/** The server found no referral with that code or id (or none this session may see). */
export function isReferralMissing(error: unknown): boolean {
  return isApiError(error) && error.status === 404;
}
