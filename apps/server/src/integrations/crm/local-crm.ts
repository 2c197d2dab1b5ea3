import { randomBytes } from 'node:crypto';
import { checkMidFormat } from '@pos/domain';
import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { stores } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import type { Clock } from '../../lib/clock';
import type { CrmPort } from './crm.port';

/** 'CRM-20261122-3F9A1C2B': the UTC day and 32 random bits. */
export function newCrmReference(now: Date): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  return `CRM-${day}-${randomBytes(4).toString('hex').toUpperCase()}`;
}

/**
 * The CRM without a CRM: a feature-change request is recorded in the audit log (entity 'crm_request',
 * action 'request_feature_change', entity id = the reference), and MID validation is answered from
 * the format rule plus uniqueness across stores.mid.
 */
export function createLocalCrm(deps: { database: Database; clock: Clock }): CrmPort {
  const { database, clock } = deps;
  return {
    async requestFeatureChange(input) {
      const now = clock.now();
      const reference = newCrmReference(now);
      await writeAudit(database.db, {
        at: now,
        actorType: 'system',
        actorEmail: input.requestedBy,
        action: 'request_feature_change',
        entity: 'crm_request',
        entityId: reference,
        customerId: input.customerId,
        after: {
          reference,
          storeId: input.storeId,
          customerId: input.customerId,
          features: input.features,
          requestedBy: input.requestedBy,
          ...(input.notes === undefined ? {} : { notes: input.notes }),
        },
      });
      return { reference };
    },

    async validateMid(mid, opts = {}) {
      const format = checkMidFormat(mid);
      if (!format.ok) return { valid: false, reason: format.reason };
      const sameMid = eq(stores.mid, format.mid);
      const [taken] = await database.db
        .select({ id: stores.id })
        .from(stores)
        .where(opts.excludeStoreId === undefined ? sameMid : and(sameMid, ne(stores.id, opts.excludeStoreId)))
        .limit(1);
      if (taken) return { valid: false, reason: `MID ${format.mid} is already used by store ${taken.id}.` };
      return { valid: true };
    },
  };
}
