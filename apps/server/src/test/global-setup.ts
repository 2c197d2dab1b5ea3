import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import type { TestProject } from 'vitest/node';
import { migrateDatabase, openPglite, openPostgres } from '../db/client';
import { databaseUrlFor, type DbTemplate } from './db-template';

/**
 * Make one migrated database per test run; each test file starts from a copy of it.
 * PGlite (default): a dump of a migrated in-memory database. PostgreSQL (TEST_DATABASE_URL): a template database.
 */
export default async function setup(project: TestProject) {
  const baseUrl = process.env.TEST_DATABASE_URL;
  if (baseUrl) {
    const templateName = `pbo_tpl_${Date.now()}_${randomBytes(3).toString('hex')}`;
    const admin = new pg.Client({ connectionString: baseUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${templateName}`);
    const database = await openPostgres(databaseUrlFor(baseUrl, templateName), { max: 1 });
    await migrateDatabase(database);
    await database.close();
    const template: DbTemplate = { kind: 'postgres', baseUrl, templateName };
    project.provide('dbTemplate', template);
    return async () => {
      // Drop the template and any per-file database a crashed test left behind.
      const { rows } = await admin.query<{ datname: string }>(
        `SELECT datname FROM pg_database WHERE datname = $1 OR datname LIKE $2`,
        [templateName, `${templateName.replace('pbo_tpl_', 'pbo_t_')}%`],
      );
      for (const row of rows) await admin.query(`DROP DATABASE IF EXISTS ${row.datname} WITH (FORCE)`);
      await admin.end();
    };
  }

  const database = await openPglite();
  await migrateDatabase(database);
  const dump = await database.pglite.dumpDataDir('none');
  await database.close();
  const dir = mkdtempSync(path.join(os.tmpdir(), 'pbo-template-'));
  const file = path.join(dir, 'template.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  const template: DbTemplate = { kind: 'pglite', file };
  project.provide('dbTemplate', template);
  return () => rmSync(dir, { recursive: true, force: true });
}
