import { eq } from 'drizzle-orm';
import type { Db } from '../db/client';
import { terminals } from '../db/schema';
import { isRecordVisible } from './stores';
import type { Viewer } from './viewer';

/**
 * Who holds a serial number other than terminal `elmerId` (null: any terminal): the reason it cannot be used, naming
 * the terminal when the viewer may see it (decision 140); null when it is free. One rule for the validate call and
 * the serials Operations enters on an order at Installation (decision 150).
 */
export async function serialHolder(
  db: Db,
  viewer: Viewer,
  serial: string,
  elmerId: string | null,
): Promise<{ elmerId: string | null; reason: string } | null> {
  const [other] = await db
    .select({ elmerId: terminals.elmerId, customerId: terminals.customerId, storeId: terminals.storeId })
    .from(terminals)
    .where(eq(terminals.serialNumber, serial));
  if (!other || other.elmerId === elmerId) return null;
  return (await isRecordVisible(db, viewer, other))
    ? { elmerId: other.elmerId, reason: `Serial number ${serial} belongs to terminal ${other.elmerId}.` }
    : { elmerId: null, reason: `Serial number ${serial} belongs to another terminal.` };
}
