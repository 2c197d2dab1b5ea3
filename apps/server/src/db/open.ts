import path from 'node:path';
import type { AppConfig } from '../config';
import { openPglite, openPostgres, type Database } from './client';
import { acquireDataDirLock } from './data-dir-lock';

/** The database the configuration names: PostgreSQL when DATABASE_URL is set, else PGlite in DATA_DIR (locked). */
export async function openConfiguredDatabase(config: AppConfig): Promise<Database> {
  if (config.databaseUrl) return openPostgres(config.databaseUrl);
  const lock = acquireDataDirLock(config.dataDir);
  try {
    const database = await openPglite({ dataDir: path.join(config.dataDir, 'pgdata') });
    return {
      ...database,
      async close() {
        try {
          await database.close();
        } finally {
          lock.release();
        }
      },
    };
  } catch (err) {
    lock.release();
    throw err;
  }
}
