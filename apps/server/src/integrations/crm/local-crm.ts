import { randomBytes } from 'node:crypto';
import { checkMidFormat } from '@pos/domain';
import { and, eq, ne } from 'drizzle-orm';
import type { Database } from '../../db/client';
import { stores } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import type { Clock } from '../../lib/clock';
import type { CrmLead, CrmPort } from './crm.port';

/** 'CRM-20261122-3F9A1C2B': the UTC day and 32 random bits. */
export function newCrmReference(now: Date): string {
  const day = now.toISOString().slice(0, 10).replace(/-/g, '');
  return `CRM-${day}-${randomBytes(4).toString('hex').toUpperCase()}`;
}

/**
 * The local CRM's leads (decision 159): deterministic demo leads, US and Canadian, so `#/neworder?zoholeadid=5000001`
 * works without a CRM. Any other id is unknown.
 */
export const LOCAL_CRM_LEADS: readonly CrmLead[] = [
  {
    lead_id: '5000001',
    legal_name: 'Maple Street Grocers LLC',
    dba: 'Maple Street Market',
    first_name: 'Dana',
    last_name: 'Whitfield',
    email: 'dana.whitfield@example.com',
    phone: '(212) 555-0141',
    address1: '418 Maple Street',
    city: 'Brooklyn',
    state: 'NY',
    zip: '11225',
    country: 'US',
    sales_rep_email: 'rep.north@example.com',
  },
  {
    lead_id: '5000002',
    legal_name: 'Lone Star Liquor Inc.',
    dba: 'Lone Star Liquor',
    first_name: 'Ramon',
    last_name: 'Castillo',
    email: 'ramon@lonestarliquor.example.com',
    phone: '(512) 555-0188',
    address1: '2200 South Congress Avenue',
    city: 'Austin',
    state: 'TX',
    zip: '78704',
    country: 'US',
    sales_rep_email: null,
  },
  {
    lead_id: '5000003',
    legal_name: 'Épicerie Saint-Laurent Inc.',
    dba: 'Épicerie du Coin',
    first_name: 'Chloé',
    last_name: 'Tremblay',
    email: 'chloe.tremblay@example.org',
    phone: '(514) 555-0123',
    address1: '5120 boulevard Saint-Laurent',
    city: 'Montréal',
    state: 'QC',
    zip: 'H2T 1R8',
    country: 'CA',
    sales_rep_email: 'rep.canada@example.org',
  },
  {
    lead_id: '5000004',
    legal_name: 'Harbourfront Convenience Ltd.',
    dba: 'Harbourfront Convenience',
    first_name: 'Priya',
    last_name: 'Nair',
    email: 'priya.nair@example.org',
    phone: '(604) 555-0170',
    address1: '88 Water Street',
    city: 'Vancouver',
    state: 'BC',
    zip: 'V6B 1A4',
    country: 'CA',
    sales_rep_email: null,
  },
];

/**
 * The CRM without a CRM: a feature-change request is recorded in the audit log (entity 'crm_request',
 * action 'request_feature_change', entity id = the reference), and MID validation is answered from
 * the format rule plus uniqueness across stores.mid; a lead is one of LOCAL_CRM_LEADS.
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

    async getLead(leadId) {
      const lead = LOCAL_CRM_LEADS.find((l) => l.lead_id === leadId.trim());
      return lead ? { ...lead } : null;
    },
  };
}
