import { DISTRIBUTOR_SIGN_OUT_RELOAD_MS, ROLE, signOutRedirect } from '@pos/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { clearToken, getRole, getToken, removeFlag, setFlag } from '../../../lib/session';

/**
 * Spec §4 sign-out: release the session on the server (a failure is only logged: 'release token failed',
 * §8), set create_distributor_orders and search_orders_edit to 'false', remove customer_features_limited,
 * clear the token (isLoggedIn 'false'); distributors go to /distributor and the page reloads after
 * DISTRIBUTOR_SIGN_OUT_RELOAD_MS (10 ms), everyone else to /login.
 */
export async function signOut(): Promise<void> {
  const distributor = getRole() === ROLE.DISTRIBUTOR;
  if (getToken()) {
    try {
      await api.get('/api/auth/logout/{token}');
    } catch (error) {
      console.error('release token failed', error);
    }
  }
  setFlag('create_distributor_orders', false);
  setFlag('search_orders_edit', false);
  removeFlag('customer_features_limited');
  clearToken();
  window.location.hash = `#${signOutRedirect({ distributor })}`;
  if (distributor) setTimeout(() => window.location.reload(), DISTRIBUTOR_SIGN_OUT_RELOAD_MS);
}

/** Sign-out for buttons and timers: also drops every cached answer, so the next user sees none of them. */
export function useSignOut() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: signOut,
    meta: { silentError: true },
    onSettled: () => queryClient.removeQueries(),
  });
}
