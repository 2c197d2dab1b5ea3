import type { CrmLead } from '@pos/domain';

export type { CrmLead };

/**
 * The CRM (Zoho in the legacy product) as the rest of the server sees it: feature-change requests for a
 * store's terminals (`/api/zoho/accessoriesorder`) and MID validation (`/api/zoho/storemidvalidate`).
 * It also answers a lead (`getLead`): what a new order started from the CRM (#/neworder?zoholeadid=…) is
 * pre-filled with (decision 159).
 * Two implementations: `local-crm.ts` (default; records requests in the audit log and answers MID checks
 * from a rule) and `http-crm.ts` (selected by CRM_URL). Pick one with `createCrm(config, database, clock)`.
 */

export interface CrmFeatureChangeInput {
  /** Our store id (stores.id). */
  storeId: number;
  /** Our customer id (customers.id). */
  customerId: number;
  /** Feature names to add/remove/change, as the caller got them (e.g. NRS Pay software features). */
  features: string[];
  /** E-mail of the staff member (or 'system') asking. */
  requestedBy: string;
  notes?: string;
}

export interface CrmFeatureChangeResult {
  /** The CRM's reference for the request, e.g. 'CRM-20261122-3F9A1C2B'. */
  reference: string;
}

export interface CrmMidValidation {
  valid: boolean;
  /** Why not valid (a sentence a person can read); absent when valid. */
  reason?: string;
}

export interface CrmValidateMidOptions {
  /** The store being edited: its own current MID is not a duplicate. */
  excludeStoreId?: number;
}

export interface CrmPort {
  /** Ask the CRM to change a store's terminal features. Throws AppError('unavailable') when the CRM cannot be reached. */
  requestFeatureChange(input: CrmFeatureChangeInput): Promise<CrmFeatureChangeResult>;
  /** Is this merchant id well-formed and not already used by another store? */
  validateMid(mid: string, opts?: CrmValidateMidOptions): Promise<CrmMidValidation>;
  /** The lead with this id, or null when the CRM has none. Throws AppError('unavailable') when the CRM cannot be reached. */
  getLead(leadId: string): Promise<CrmLead | null>;
}
