import type { Role } from '@pos/domain';
import { createStaffUser, type CreateStaffUserInput } from '../db/factories';
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

/** A staff user of `signInStaff`: a role, or what `createStaffUser` takes (the e-mail defaults to `<key>@example.com`). */
export type StaffSpec = Role | (CreateStaffUserInput & { role: Role });

/**
 * The usual start of a server test: make one staff user per key and sign each in; answers their session tokens under
 * the same keys. `signInStaff(t, { admin: 'Admin', viewer: { role: 'AR Team', email: 'ar@example.com' } })` →
 * `{ admin, viewer }`.
 */
export async function signInStaff<K extends string>(
  t: TestApp,
  staff: Record<K, StaffSpec>,
): Promise<Record<K, string>> {
  const tokens = {} as Record<K, string>;
  for (const [key, spec] of Object.entries(staff) as Array<[K, StaffSpec]>) {
    const input: CreateStaffUserInput = typeof spec === 'string' ? { role: spec } : spec;
    const email = input.email ?? `${key}@example.com`;
    await createStaffUser(t.database.db, { ...input, email });
    tokens[key] = await signIn(t, email);
  }
  return tokens;
}
