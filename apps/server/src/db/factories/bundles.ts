import { eq } from 'drizzle-orm';
import type { Db } from '../client';
import { bundles } from '../schema';
import { BUNDLE_DEFS } from './catalogue-data';
import { createCatalogue } from './catalogue';

/** Make sure bundle `id` exists: a catalogue bundle brings the whole catalogue, another id a bare bundle. */
export async function createBundleIfMissing(db: Db, id: number): Promise<typeof bundles.$inferSelect> {
  const [found] = await db.select().from(bundles).where(eq(bundles.id, id));
  if (found) return found;
  if (BUNDLE_DEFS.some((b) => b.id === id)) {
    await createCatalogue(db);
  } else {
    await db.insert(bundles).values({ id, name: `Bundle ${id}` });
  }
  const [row] = await db.select().from(bundles).where(eq(bundles.id, id));
  return row!;
}
