import { loadConfig } from '../config';
import { migrateDatabase } from './client';
import { openConfiguredDatabase } from './open';

/** `npm run db:migrate`: apply committed migrations to the configured database and exit. */
const config = loadConfig();
const database = await openConfiguredDatabase(config);
try {
  await migrateDatabase(database);
  console.log(`Migrations applied (${database.kind}).`);
} finally {
  await database.close();
}
