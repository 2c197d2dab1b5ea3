import type { Db } from '../db/client';
import { auditLog } from '../db/schema';
import type { SessionContext } from './session';

export type AuditActorType = 'staff' | 'distributor' | 'merchant' | 'system' | 'anonymous';

export interface AuditActor {
  actorType: AuditActorType;
  actorId?: string | number | null;
  actorEmail?: string | null;
}

export interface AuditEntry extends AuditActor {
  at: Date;
  action: string;
  entity: string;
  entityId?: string | number | null;
  before?: unknown;
  after?: unknown;
  requestId?: string | null;
  /**
   * The customer the change belongs to (the customer page's Activity lists entries by it); defaults to the
   * entity id of a 'customer' entry, else `customer_id` of `after` (else `before`).
   */
  customerId?: number | null;
}

/** A positive integer id (a number, or a string of digits), else null. */
function positiveId(value: unknown): number | null {
  if (typeof value === 'string' && !/^[1-9][0-9]*$/.test(value)) return null;
  if (typeof value !== 'string' && typeof value !== 'number') return null;
  const id = Number(value);
  return Number.isSafeInteger(id) && id > 0 ? id : null;
}

/** `customer_id` of an object (an audit before/after, a job's input), when it holds a positive integer one. */
export function customerIdIn(value: unknown): number | null {
  if (value === null || typeof value !== 'object') return null;
  return positiveId((value as Record<string, unknown>).customer_id);
}

/** Append one row to the audit trail (pass the open transaction so it commits with the change). */
export async function writeAudit(db: Db, entry: AuditEntry): Promise<void> {
  await db.insert(auditLog).values({
    at: entry.at,
    actorType: entry.actorType,
    actorId: entry.actorId == null ? null : String(entry.actorId),
    actorEmail: entry.actorEmail ?? null,
    action: entry.action,
    entity: entry.entity,
    entityId: entry.entityId == null ? null : String(entry.entityId),
    before: entry.before ?? null,
    after: entry.after ?? null,
    requestId: entry.requestId ?? null,
    customerId:
      entry.customerId ??
      (entry.entity === 'customer' ? positiveId(entry.entityId) : null) ??
      customerIdIn(entry.after) ??
      customerIdIn(entry.before),
  });
}

/** The audit actor of a signed-in session (a make-token session acts as its agent's distributor). */
export function actorOfSession(session: SessionContext): AuditActor {
  switch (session.kind) {
    case 'staff':
      return { actorType: 'staff', actorId: session.staffUserId, actorEmail: session.email };
    case 'distributor':
      return { actorType: 'distributor', actorId: session.distributorAccountId, actorEmail: session.email };
    case 'maketoken':
      return {
        actorType: 'distributor',
        actorId: session.agentId == null ? null : `agent:${session.agentId}`,
        actorEmail: session.email,
      };
  }
}
