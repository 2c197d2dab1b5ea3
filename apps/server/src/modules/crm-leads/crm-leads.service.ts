import type { CrmLeadInfo, CrmOrderSettings } from '@pos/domain';
import type { ServiceCtx } from '../../context';
import { AppError } from '../../http/errors';

/** The configuration a CRM order carries (CRM_ORGANISATION_ID … CRM_EXTERNAL_ORDER_MARKER; decision 159). */
export function crmOrderSettingsOf(ctx: ServiceCtx): CrmOrderSettings {
  const c = ctx.app.config.crmOrder;
  return {
    organisation_id: c.organisationId,
    organisation_name: c.organisationName,
    parent_customer_id: c.parentCustomerId,
    requester_tag: c.requesterTag,
    external_order_marker: c.externalOrderMarker,
  };
}

/**
 * A CRM lead for a new order (#/neworder?zoholeadid=…): the lead and the CRM order settings. Unknown lead → 404; the
 * CRM down → AppError('unavailable') (503) from the adapter. No database transaction is open around the CRM call.
 */
export async function getCrmLead(ctx: ServiceCtx, input: { leadId: string }): Promise<CrmLeadInfo> {
  const lead = await ctx.app.crm.getLead(input.leadId);
  if (!lead) throw new AppError('not_found', `The CRM has no lead ${input.leadId}.`);
  return { lead, crm: crmOrderSettingsOf(ctx) };
}
