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
    (
      await database.query<{ customer_id: number | null }>(`select customer_id from audit_log where entity_id = $1`, [
        entityId,
      ])
    )[0]?.customer_id;

  it('files the entry under the customer named in after, else before, else the explicit id', async () => {
    await writeAudit(database.db, {
      at,
      actorType: 'system',
      action: 'update',
      entity: 'store',
      entityId: 'a1',
      before: { customer_id: 7 },
      after: { customer_id: 100001 },
    });
    await writeAudit(database.db, {
      at,
      actorType: 'system',
      action: 'delete',
      entity: 'note',
      entityId: 'a2',
      before: { customer_id: 100002 },
    });
    await writeAudit(database.db, {
      at,
      actorType: 'system',
      action: 'update',
      entity: 'customer',
      entityId: 'a3',
      customerId: 100003,
      after: { legal_name: 'X' },
    });
    await writeAudit(database.db, {
      at,
      actorType: 'system',
      action: 'seed',
      entity: 'demo',
      entityId: 'a4',
      after: { customer_id: 'abc' },
    });
    expect(await customerOf('a1')).toBe(100001);
    expect(await customerOf('a2')).toBe(100002);
    expect(await customerOf('a3')).toBe(100003);
    expect(await customerOf('a4')).toBeNull();
  });

  it('files an entry about a customer under that customer (its entity id), unless the entry names another', async () => {
    await writeAudit(database.db, {
      at,
      actorType: 'staff',
      action: 'update',
      entity: 'customer',
      entityId: 200001,
      after: { legal_name: 'Y' },
    });
    await writeAudit(database.db, {
      at,
      actorType: 'staff',
      action: 'update',
      entity: 'customer',
      entityId: '200002',
      before: { customer_id: 9 },
    });
    await writeAudit(database.db, {
      at,
      actorType: 'staff',
      action: 'merge',
      entity: 'customer',
      entityId: '200003',
      customerId: 200004,
    });
    await writeAudit(database.db, {
      at,
      actorType: 'staff',
      action: 'update',
      entity: 'customer',
      entityId: 'b1',
      after: { customer_id: 200005 },
    });
    await writeAudit(database.db, { at, actorType: 'staff', action: 'update', entity: 'customer', entityId: '0' });
    await writeAudit(database.db, { at, actorType: 'staff', action: 'update', entity: 'store', entityId: '200006' });
    expect(await customerOf('200001')).toBe(200001);
    expect(await customerOf('200002')).toBe(200002);
    expect(await customerOf('200003')).toBe(200004);
    expect(await customerOf('b1')).toBe(200005);
    expect(await customerOf('0')).toBeNull();
    expect(await customerOf('200006')).toBeNull();
  });
});
