import { and, inArray, sql } from 'drizzle-orm';
import type { AppContext } from '../../context';
import type { Db } from '../../db/client';
import { invoiceDunning } from '../../db/schema';
import type { AuditActor } from '../../http/audit';
import { applyPaidInvoices } from '../billing';
import { balancesOf, syncInvoice } from '../ledger';

/*
 * The one place the side effects of a posting happen (issue 28 step 3, decision 144). Whatever moved money or
 * credit on some invoices — a charge's answer, a refund, a receipt applied or un-applied, a memo, a write-off, a
 * return's credit — calls `afterPosting` in its transaction, after writing its rows: each invoice's stored figures
 * follow the ledger (syncInvoice), and those now settled leave dunning and move their license (invoicesSettled).
 * Call `prepareLicenseJobs` (billing) before the transaction.
 */

export type SyncedInvoice = Awaited<ReturnType<typeof syncInvoice>>;

/** Sync each invoice's figures, then settle what is settled. Returns each invoice's before / derived (for audits). */
export async function afterPosting(
  tx: Db,
  app: Pick<AppContext, 'queue'>,
  invoiceIds: readonly number[],
  now: Date,
  actor: AuditActor,
  requestId: string,
): Promise<Map<number, SyncedInvoice>> {
  const ids = [...new Set(invoiceIds)];
  const synced = new Map<number, SyncedInvoice>();
  for (const id of ids) synced.set(id, await syncInvoice(tx, id, now));
  await invoicesSettled(tx, app, ids, now, actor, requestId);
  return synced;
}

/**
 * After money or credit reached some invoices (a charge, a receipt applied, a credit memo; in the caller's
 * transaction, after syncInvoice): those the ledger now says are settled (open 0) leave dunning ('recovered'), their
 * stores stop being past due once none of their invoices is in collection, and paid service invoices move the
 * license expiry (applyPaidInvoices; call prepareLicenseJobs before the transaction). Partly paid invoices stay in
 * dunning.
 */
export async function invoicesSettled(
  tx: Db,
  app: Pick<AppContext, 'queue'>,
  invoiceIds: readonly number[],
  now: Date,
  actor: AuditActor,
  requestId: string,
): Promise<void> {
  if (invoiceIds.length === 0) return;
  const balances = await balancesOf(tx, invoiceIds);
  const settled = invoiceIds.filter((id) => balances.get(id)?.open_cents === 0);
  if (settled.length === 0) return;
  const recovered = await tx
    .update(invoiceDunning)
    .set({ state: 'recovered', nextRetryOn: null, updatedAt: now, version: sql`${invoiceDunning.version} + 1` })
    .where(
      and(
        inArray(invoiceDunning.invoiceId, settled),
        inArray(invoiceDunning.state, ['retrying', 'collection', 'stopped']),
      ),
    )
    .returning({ storeId: invoiceDunning.storeId });
  const storeIds = [...new Set(recovered.map((r) => r.storeId).filter((id): id is number => id !== null))];
  if (storeIds.length > 0)
    await tx.execute(sql`
      update stores set past_due_since = null
      where id in (${sql.join(
        storeIds.map((id) => sql`${id}`),
        sql`, `,
      )}) and past_due_since is not null
        and not exists (select 1 from invoice_dunning d where d.store_id = stores.id and d.state = 'collection')`);
  await applyPaidInvoices(tx, app, settled, now, actor, requestId);
}
