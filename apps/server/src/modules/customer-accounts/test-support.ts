import { and, asc, eq } from 'drizzle-orm';
import { auditLog } from '../../db/schema';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/** A token no session has. */
export const UNKNOWN_TOKEN = 'Q'.repeat(43);

export interface AccountsFixture {
  t: TestApp;
  /** Customer Support: customer_details_edit and customer_features_edit. */
  editor: string;
  /** AR Team: customer_details_view only. */
  viewer: string;
  /** Customer Service: customer_details_edit and customer_features_limited. */
  limited: string;
  /** Marketing: no customer privilege at all. */
  outsider: string;
}

/** One app per test file, with a signed-in user of each kind. */
export async function accountsFixture(): Promise<AccountsFixture> {
  const t = await createTestApp();
  const staff = await signInStaff(t, {
    editor: 'Customer Support',
    viewer: 'AR Team',
    limited: 'Customer Service',
    outsider: 'Marketing',
  });
  return { t, ...staff };
}

/** Audit rows of an entity (optionally one record), oldest first. */
export async function auditOf(t: TestApp, entity: string, entityId?: string | number) {
  return t.database.db
    .select()
    .from(auditLog)
    .where(
      and(eq(auditLog.entity, entity), entityId === undefined ? undefined : eq(auditLog.entityId, String(entityId))),
    )
    .orderBy(asc(auditLog.id));
}

export { failAuditOf } from '../../test/fail-audit';
