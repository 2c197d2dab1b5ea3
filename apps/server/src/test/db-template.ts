import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import pg from 'pg';
import { inject } from 'vitest';
import { openPglite, openPostgres, type Database, type OnQuery } from '../db/client';

export type DbTemplate = { kind: 'pglite'; file: string } | { kind: 'postgres'; baseUrl: string; templateName: string };

declare module 'vitest' {
  export interface ProvidedContext {
    dbTemplate: DbTemplate;
  }
}

export function databaseUrlFor(baseUrl: string, name: string): string {
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  return url.toString();
}

let templateBlob: Blob | undefined;

/**
 * A fresh, migrated database for one test (or one file): a copy of the run's template. `onQuery` is told every
 * statement run on it (a test counting queries).
 */
export async function createTestDatabase(options: { onQuery?: OnQuery } = {}): Promise<Database> {
  const template = inject('dbTemplate');
  if (template.kind === 'pglite') {
    templateBlob ??= new Blob([readFileSync(template.file)]);
    return openPglite({ loadDataDir: templateBlob, onQuery: options.onQuery });
  }
  const name = `${template.templateName.replace('pbo_tpl_', 'pbo_t_')}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: template.baseUrl });
  await admin.connect();
  try {
    for (let attempt = 0; ; attempt++) {
      try {
        await admin.query(`CREATE DATABASE ${name} TEMPLATE ${template.templateName}`);
        break;
      } catch (err) {
        // Two files copying the template at the same moment: wait and retry.
        if (attempt >= 20 || !/being accessed by other users/.test((err as Error).message)) throw err;
        await new Promise((r) => setTimeout(r, 100 + Math.random() * 200));
      }
    }
  } finally {
    await admin.end();
  }
  const database = await openPostgres(databaseUrlFor(template.baseUrl, name), { max: 5, onQuery: options.onQuery });
  return {
    ...database,
    async close() {
      await database.close();
      const dropper = new pg.Client({ connectionString: template.baseUrl });
      await dropper.connect();
      await dropper.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await dropper.end();
    },
  };
}
