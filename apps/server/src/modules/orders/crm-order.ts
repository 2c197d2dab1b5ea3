import type { CrmOrderMark, OrderDocument } from '@pos/domain';
import type { CrmOrderConfig } from '../../config';

/**
 * The CRM order mark of a saved document (decision 159). The mark is the server's: a document that names a CRM lead
 * (`CrmOrder.leadId`, from #/neworder?zoholeadid=…) gets the external order marker, organisation, parent customer
 * and requester tag of the configuration, whatever the browser sent beside the lead id; once an order is a CRM order
 * its mark is kept by every later save (like its terminal serials). A document without a lead, on an order without a
 * mark, is no CRM order (left as it is). The organisation id and name fill the document's orgId / orgName when those are blank.
 */
export function withCrmOrderMark(
  doc: OrderDocument,
  before: OrderDocument | null,
  config: CrmOrderConfig,
): OrderDocument {
  const kept = before?.CrmOrder?.leadId ? before.CrmOrder : null;
  const leadId = kept?.leadId ?? doc.CrmOrder?.leadId ?? null;
  if (!leadId) return doc;
  const mark: CrmOrderMark = kept ?? {
    leadId,
    externalOrderMarker: config.externalOrderMarker,
    organisationId: config.organisationId,
    parentCustomerId: config.parentCustomerId,
    requesterTag: config.requesterTag,
  };
  const blank = (v: unknown) => v == null || (typeof v === 'string' && v.trim() === '');
  return {
    ...doc,
    CrmOrder: mark,
    orgId: blank(doc.orgId) ? (mark.organisationId ?? null) : doc.orgId,
    orgName: blank(doc.orgName) ? config.organisationName : doc.orgName,
  };
}
