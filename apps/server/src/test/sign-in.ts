import type { TestApp } from './test-app';

/**
 * Sign a staff user in through the real sign-in call (local identity provider) and return the session token.
 * The user must exist (createStaffUser) and be active.
 */
export async function signIn(t: TestApp, email: string): Promise<string> {
  const issuer = t.app.ctx.identity.local;
  if (!issuer) throw new Error('signIn needs the local identity provider');
  const idtoken = await issuer.signIdToken({ email });
  const res = await t.request({ method: 'POST', url: '/api/auth/authenticate', payload: { idtoken } });
  if (res.statusCode !== 200) throw new Error(`sign-in of ${email} failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { info: { token: string } }).info.token;
}
