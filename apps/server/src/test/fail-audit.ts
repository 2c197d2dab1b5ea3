import type { TestApp } from './test-app';

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
