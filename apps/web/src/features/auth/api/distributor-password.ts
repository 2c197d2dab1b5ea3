import { useMutation } from '@tanstack/react-query';
import { api } from '../../../lib/api';

/** POST /api/auth/distributor/password/forgot {email}: always answers "sent" (no account enumeration). */
export async function requestPasswordReset(email: string): Promise<void> {
  await api.post<unknown>('/api/auth/distributor/password/forgot', { email });
}

/** POST /api/auth/distributor/password/reset {token, password}: the link's token and the new password. */
export async function resetPassword(input: { readonly token: string; readonly password: string }): Promise<void> {
  await api.post<unknown>('/api/auth/distributor/password/reset', input);
}

/** "Forgot password?": the form shows the answer (or the refusal) itself. */
export function useRequestPasswordReset() {
  return useMutation({ mutationFn: requestPasswordReset, meta: { silentError: true } });
}

/** A new password from the e-mailed link: the page shows a refusal itself. */
export function useResetPassword() {
  return useMutation({ mutationFn: resetPassword, meta: { silentError: true } });
}
