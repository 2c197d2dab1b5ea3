import { and, asc, desc, eq, type AnyColumn, type SQL } from 'drizzle-orm';
import type { ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { customers, stores } from '../../db/schema';
import { writeAudit, type AuditEntry } from '../../http/audit';
import { AppError } from '../../http/errors';

/** The service context under its old name, for idempotency.ts until lib/idempotency.ts replaces it. */
export type AccountCtx = ServiceCtx;

/** Today (UTC) as YYYY-MM-DD by the app clock. */
export function todayOf(ctx: ServiceCtx): string {
  return ctx.app.clock.now().toISOString().slice(0, 10);
}

export const isoOrNull = (d: Date | null | undefined): string | null => (d ? d.toISOString() : null);

/**
 * An audit entry of this module: actor from the session, the request id, and `customer_id` as a top-level key
 * of `after` and `before` (the rule every part follows, so the customer's audit trail finds it).
 */
export async function audit(
  tx: Db,
  ctx: ServiceCtx,
  now: Date,
  entry: {
    customerId: number;
    action: string;
    entity: string;
    entityId: string | number;
    before?: Record<string, unknown> | null;
    after: Record<string, unknown>;
  },
): Promise<void> {
  const withCustomer = (v: Record<string, unknown>) => ({ customer_id: entry.customerId, ...v });
  const row: AuditEntry = {
    ...ctx.actor,
    at: now,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId,
    after: withCustomer(entry.after),
    requestId: ctx.requestId,
    customerId: entry.customerId,
  };
  if (entry.before) row.before = withCustomer(entry.before);
  await writeAudit(tx, row);
}

export interface CustomerRef {
  id: number;
  legalName: string;
  email: string;
  country: string;
  currency: string;
}

/** The customer of a "…/customers/{id}/…" path, or 404. */
export async function requireCustomer(db: Db, customerId: number): Promise<CustomerRef> {
  const [row] = await db
    .select({
      id: customers.id,
      legalName: customers.legalName,
      email: customers.email,
      country: customers.country,
      currency: customers.currency,
    })
    .from(customers)
    .where(eq(customers.id, customerId));
  if (!row) throw new AppError('not_found', `Customer ${customerId} was not found.`);
  return row;
}

export interface StoreRef {
  id: number;
  customerId: number;
  currency: string;
  country: string;
  doingBusinessAs: string;
  licenseExpiresOn: string | null;
  version: number;
}

/** A store of this customer, or 404 naming the field it came from. `lock` takes a row lock (FOR UPDATE). */
export async function requireStoreOf(
  db: Db,
  customerId: number,
  storeId: number,
  field: string,
  lock = false,
): Promise<StoreRef> {
  const q = db
    .select({
      id: stores.id,
      customerId: stores.customerId,
      currency: stores.currency,
      country: stores.country,
      doingBusinessAs: stores.doingBusinessAs,
      licenseExpiresOn: stores.licenseExpiresOn,
      version: stores.version,
    })
    .from(stores)
    .where(and(eq(stores.id, storeId), eq(stores.customerId, customerId)));
  const [row] = lock ? await q.for('update') : await q;
  if (!row) {
    const message = `Store ${storeId} is not a store of customer ${customerId}.`;
    throw new AppError('not_found', message, { [field]: message });
  }
  return row;
}

/** A 400 validation_failed for one field. */
export function fieldError(field: string, message: string): AppError {
  return new AppError('validation_failed', message, { [field]: message });
}

/** ORDER BY for a whitelisted `sort` ('field' or '-field'), then the tie-breaker. */
export function orderBy(
  sort: string | undefined,
  columns: Record<string, AnyColumn | SQL>,
  fallback: string,
  tieBreaker: AnyColumn,
): SQL[] {
  const spec = sort ?? fallback;
  const descending = spec.startsWith('-');
  const column = columns[descending ? spec.slice(1) : spec] ?? columns[fallback.replace(/^-/, '')]!;
  return [descending ? desc(column) : asc(column), asc(tieBreaker)];
}
