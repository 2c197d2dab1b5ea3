import { z } from 'zod';
import { CURRENCY_CODES } from '../codes/currencies';
import { emailSchema } from './common';
import { featuresUpdateRequest, recordVersionSchema } from './customer-accounts';
import { idParam } from './customers';
import { FEATURE_CHANGE_ACTIONS } from './jobs';

/*
 * The merchant's feature-change page (issue 16 point 6; decision 123). Staff prepare a change of a store's
 * features on /editplan and send it; the merchant accepts or declines it through the e-mailed link.
 *   POST /api/customers/{id}/{token}/featurechanges     featureChangePrepareRequest → featureChange (201)
 *        (customer_features_edit or customer_features_limited — the limited holder only for LIMITED_FEATURES)
 *   GET  /api/customers/{id}/{token}/featurechanges?custstoreid    → featureChangeList (the store's, newest first)
 *   POST /api/customers/{id}/{token}/featurechanges/{changeId}/cancel   {version} → featureChange
 *   GET  /api/public/features/{tok}                                → merchantFeatureChangeView (no session)
 *   POST /api/public/features/{tok}   merchantFeatureDecisionRequest → merchantFeatureChangeView (no session)
 * A link never issued for a feature change answers 404; used, expired or replaced 410; a change decided already
 * (or canceled) 409; a stale version 409.
 */

export const FEATURE_CHANGE_STATUS_CODES = ['sent', 'accepted', 'declined', 'canceled'] as const;
export type FeatureChangeStatus = (typeof FEATURE_CHANGE_STATUS_CODES)[number];

export const FEATURE_CHANGE_STATUS_LABELS: Record<FeatureChangeStatus, string> = {
  sent: 'Waiting for the merchant',
  accepted: 'Accepted',
  declined: 'Declined',
  canceled: 'Canceled',
};

/** The merchant's link to a feature change works this many days. */
export const FEATURE_CHANGE_LINK_DAYS = 14;

/**
 * Staff send the store's features as they should be (the same body as the features PUT, without
 * notify_merchant): the difference from today's features becomes the change the merchant accepts. `email`: where to
 * send it (default: the store's owner, general or billing e-mail, else the customer's).
 */
export const featureChangePrepareRequest = featuresUpdateRequest.omit({ notify_merchant: true }).extend({
  email: emailSchema.optional(),
});
export type FeatureChangePrepareRequest = z.infer<typeof featureChangePrepareRequest>;

/** One feature switched on (add) or off (remove), with what it costs a month. */
export const featureChangeLine = z.object({
  billing_item_id: z.number().int(),
  name: z.string(),
  action: z.enum(FEATURE_CHANGE_ACTIONS),
  monthly_cents: z.number().int(),
});
export type FeatureChangeLine = z.infer<typeof featureChangeLine>;

/** What the merchant sees: the store, the changes, the monthly amount now and after, from when. */
export const merchantFeatureChangeView = z.object({
  store_name: z.string(),
  changes: z.array(featureChangeLine),
  current_monthly_cents: z.number().int(),
  new_monthly_cents: z.number().int(),
  currency: z.enum(CURRENCY_CODES),
  /** The first billing day charged the new amount (the plan's next billing day). */
  effective_on: z.string(),
  status: z.enum(FEATURE_CHANGE_STATUS_CODES),
  decided_at: z.string().nullable(),
  expires_at: z.string().nullable(),
  version: z.number().int(),
});
export type MerchantFeatureChangeView = z.infer<typeof merchantFeatureChangeView>;

export const merchantFeatureDecisionRequest = z.object({
  decision: z.enum(['accept', 'decline'], { message: 'Choose accept or decline.' }),
  version: recordVersionSchema,
});
export type MerchantFeatureDecisionRequest = z.infer<typeof merchantFeatureDecisionRequest>;

/** A prepared change as staff see it. */
export const featureChange = merchantFeatureChangeView.omit({ store_name: true, expires_at: true }).extend({
  feature_change_id: z.number().int(),
  customer_id: z.number().int(),
  store_id: z.number().int(),
  plan_id: z.number().int().nullable(),
  created_by_email: z.string(),
  created_at: z.string(),
  decided_ip: z.string().nullable(),
  /** The job that e-mails the link (GET /api/jobs/{jobId}); null on reads. */
  email_job_id: z.string().nullable(),
});
export type FeatureChange = z.infer<typeof featureChange>;

export const featureChangeList = z.object({ items: z.array(featureChange) });
export type FeatureChangeList = z.infer<typeof featureChangeList>;

export const featureChangeListQuery = z.object({ custstoreid: idParam });

export const featureChangeParams = z.object({
  id: idParam,
  token: z.string(),
  changeId: idParam,
});

export const featureChangeCancelRequest = z.object({ version: recordVersionSchema });
