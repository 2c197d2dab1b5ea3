import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Database } from './client';
import { acquireDataDirLock, DataDirInUseError, LOCK_FILE_NAME } from './data-dir-lock';
import { createTestDatabase } from '../test/db-template';

describe('migrated database', () => {
  let database: Database;
  beforeAll(async () => {
    database = await createTestDatabase();
  });
  afterAll(() => database.close());

  it('has pg_trgm loaded', async () => {
    const rows = await database.query<{ sim: number }>(`select similarity('market', 'marker') as sim`);
    expect(rows[0]!.sim).toBeGreaterThan(0.3);
  });

  it('keeps the audit log append-only', async () => {
    await database.exec(
      `insert into audit_log (actor_type, action, entity, entity_id) values ('system', 'create', 'customer', '1')`,
    );
    await expect(database.exec(`update audit_log set action = 'x'`)).rejects.toThrow(/append-only/);
    await expect(database.exec(`delete from audit_log`)).rejects.toThrow(/append-only/);
    const rows = await database.query<{ n: number }>(`select count(*)::int as n from audit_log`);
    expect(rows[0]!.n).toBe(1);
  });

  it('refuses an unknown actor type', async () => {
    await expect(
      database.exec(`insert into audit_log (actor_type, action, entity) values ('robot', 'create', 'customer')`),
    ).rejects.toThrow(/audit_log_actor_type_check/);
  });
});

describe('data directory lock', () => {
  it('refuses a second process on the same data directory, naming the holder', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pbo-lock-'));
    // A real second process holds the lock.
    const holder = spawn(
      process.execPath,
      [
        '-e',
        `require('fs').writeFileSync(${JSON.stringify(path.join(dir, LOCK_FILE_NAME))}, JSON.stringify({pid: process.pid, host: require('os').hostname()})); console.log('held'); setTimeout(() => {}, 60000)`,
      ],
      { stdio: ['ignore', 'pipe', 'inherit'] },
    );
    try {
      await new Promise<void>((resolve) => holder.stdout.once('data', () => resolve()));
      let error: unknown;
      try {
        acquireDataDirLock(dir);
      } catch (err) {
        error = err;
      }
      expect(error).toBeInstanceOf(DataDirInUseError);
      expect((error as Error).message).toMatch(/is in use by another pos-backoffice process \(pid \d+\)/);
    } finally {
      holder.kill('SIGKILL');
    }
  });

  it('takes over a lock left by a process that is gone, and releases it', () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pbo-lock-'));
    const file = path.join(dir, LOCK_FILE_NAME);
    writeFileSync(file, JSON.stringify({ pid: 2 ** 22 + 12345, host: os.hostname() }));
    const lock = acquireDataDirLock(dir);
    expect(JSON.parse(readFileSync(file, 'utf8')).pid).toBe(process.pid);
    lock.release();
    expect(() => readFileSync(file)).toThrow();
  });
});
