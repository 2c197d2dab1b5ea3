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

/**
 * Make the audit write of `action` fail (a trigger raises), to prove a write is all-or-nothing: the change before
 * the audit entry must roll back with it. Returns the undo.
 */
export async function failAuditOf(t: TestApp, action: string): Promise<() => Promise<void>> {
  await t.database.exec(`
    create or replace function test_fail_audit() returns trigger language plpgsql as $$
    begin
      if new.action = '${action.replace(/'/g, "''")}' then raise exception 'audit refused by the test'; end if;
      return new;
    end $$;
    create trigger test_fail_audit before insert on audit_log for each row execute function test_fail_audit();
  `);
  return async () => {
    await t.database.exec(
      'drop trigger if exists test_fail_audit on audit_log; drop function if exists test_fail_audit();',
    );
  };
}
