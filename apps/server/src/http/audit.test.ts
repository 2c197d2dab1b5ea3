import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from '../db/client';
import { createTestDatabase } from '../test/db-template';
import { writeAudit } from './audit';

describe('writeAudit', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  const at = new Date('2026-11-22T12:00:00Z');
  const customerOf = async (entityId: string) =>
    (await database.query<{ customer_id: number | null }>(`select customer_id from audit_log where entity_id = $1`, [entityId]))[0]?.customer_id;

  it('files the entry under the customer named in after, else before, else the explicit id', async () => {
    await writeAudit(database.db, { at, actorType: 'system', action: 'update', entity: 'store', entityId: 'a1', before: { customer_id: 7 }, after: { customer_id: 100001 } });
    await writeAudit(database.db, { at, actorType: 'system', action: 'delete', entity: 'note', entityId: 'a2', before: { customer_id: 100002 } });
    await writeAudit(database.db, { at, actorType: 'system', action: 'update', entity: 'customer', entityId: 'a3', customerId: 100003, after: { legal_name: 'X' } });
    await writeAudit(database.db, { at, actorType: 'system', action: 'seed', entity: 'demo', entityId: 'a4', after: { customer_id: 'abc' } });
    expect(await customerOf('a1')).toBe(100001);
    expect(await customerOf('a2')).toBe(100002);
    expect(await customerOf('a3')).toBe(100003);
    expect(await customerOf('a4')).toBeNull();
  });
});
