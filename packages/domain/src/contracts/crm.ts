import { z } from 'zod';
import { tokenParams } from './customers';

/*
 * CRM orders (issue 31 item 4, decision 159): a new order started from a CRM lead (§3: the sign-in return URL
 * `neworder?zoholeadid=…`) is pre-filled from the lead and marked as a CRM order.
 *   GET /api/crm/leads/{leadId}/{token} (create_distributor_orders) → {lead, crm}
 */

/** A CRM lead id: 1–32 digits (Zoho record ids are numeric). */
export const CRM_LEAD_ID = /^\d{1,32}$/;
export const CRM_LEAD_ID_MESSAGE = 'A CRM lead id is 1–32 digits.';
export const crmLeadId = z.string().trim().regex(CRM_LEAD_ID, { message: CRM_LEAD_ID_MESSAGE });

const text = (max = 255) => z.string().trim().max(max);

/** What a new order needs from a lead; a field the CRM does not know is ''. */
export const crmLead = z.object({
  lead_id: crmLeadId,
  /** The business (legal) name. */
  legal_name: text(),
  /** Doing business as. */
  dba: text(),
  first_name: text(),
  last_name: text(),
  email: text(),
  phone: text(30),
  address1: text(),
  city: text(),
  state: text(50),
  zip: text(20),
  /** 'US' or 'CA' ('' when the CRM does not say). */
  country: z.enum(['US', 'CA', '']),
  /** The lead owner's (sales rep's) e-mail, or null. */
  sales_rep_email: z.string().trim().max(255).nullable(),
});
export type CrmLead = z.infer<typeof crmLead>;

/** The configuration a CRM order carries (CRM_ORGANISATION_ID … CRM_EXTERNAL_ORDER_MARKER). */
export const crmOrderSettings = z.object({
  organisation_id: z.string(),
  organisation_name: z.string(),
  parent_customer_id: z.number().int().positive(),
  requester_tag: z.string(),
  external_order_marker: z.string(),
});
export type CrmOrderSettings = z.infer<typeof crmOrderSettings>;

export const crmLeadParams = tokenParams.extend({ leadId: crmLeadId });
export const crmLeadInfo = z.object({ lead: crmLead, crm: crmOrderSettings });
export type CrmLeadInfo = z.infer<typeof crmLeadInfo>;

/**
 * The CRM order mark in the order document (`CrmOrder`): the lead the order came from and the external order
 * marker; the server fills the marker, organisation, parent customer and requester tag from its configuration when
 * a draft names a lead (decision 159).
 */
export const crmOrderMark = z.looseObject({
  leadId: crmLeadId,
  externalOrderMarker: z.string().max(64).nullish(),
  organisationId: z.string().max(64).nullish(),
  parentCustomerId: z.number().int().positive().nullish(),
  requesterTag: z.string().max(64).nullish(),
});
export type CrmOrderMark = z.infer<typeof crmOrderMark>;
