import type { AuthConfigInfo } from '@pos/domain';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { readSignInAnswer } from '../../../lib/sign-in-contracts';

/** GET /api/auth/config (public): which identity provider signs staff in, and how. */
export async function getAuthConfig(): Promise<AuthConfigInfo> {
  return readSignInAnswer(api.get<unknown>('/api/auth/config'), (c) => c.authConfigInfo);
}

export const authKeys = {
  config: ['auth', 'config'] as const,
};

export function getAuthConfigQueryOptions() {
  return queryOptions({
    queryKey: authKeys.config,
    queryFn: getAuthConfig,
    // The sign-in page explains a failure itself.
    meta: { silentError: true },
    // Fixed for the life of the server process.
    staleTime: Infinity,
  });
}

export function useAuthConfig() {
  return useQuery(getAuthConfigQueryOptions());
}
