import { JOB_QUEUE, type CurrencyCode, type FeatureChangeLine } from '@pos/domain';
import { eq, inArray } from 'drizzle-orm';
import { billingItems, featureChanges } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { featureChangeConfirmationEmail, featureChangeOfferEmail } from '../../integrations/mail/templates';
import { FEATURE_CHANGE_LINK_TTL_MS, featureChangeLink, issueLinkToken } from '../../lib/link-tokens';
import type { AppContext } from '../../context';
import { requesterEmail, type JobRef, type JobRequest, type WorkerDefinition } from '../context';
import { applyOnce, systemActor } from '../effect';
import { merchantContact } from '../merchant-contact';
import { PermanentJobError } from '../queue';

/**
 * E-mail the feature-change confirmation to the given address, else the store's owner/general/billing e-mail. With
 * `feature_change_id` (a change staff prepared for the merchant to accept; decision 123) the e-mail is the offer
 * instead: a 'features' link token (14 days) for the change, its lines and monthly amounts.
 */
export const featureChangeEmailWorker: WorkerDefinition<typeof JOB_QUEUE.featureChangeEmail> = {
  queue: JOB_QUEUE.featureChangeEmail,
  async run(ctx, request, job) {
    const { storeid: storeId, features, email, effectiveOn, reference, feature_change_id } = request.input;
    if (feature_change_id !== undefined) return mailOffer(ctx, request, job, feature_change_id);
    return applyOnce(ctx, job, async (tx, now, mark) => {
      const contact = await merchantContact(tx, storeId, ['owner', 'general', 'billing']);
      if (!contact) throw new PermanentJobError(`Store ${storeId} does not exist.`, 'not_found');
      mark.customerId = contact.store.customerId;
      const items = await tx
        .select({ id: billingItems.id, name: billingItems.name })
        .from(billingItems)
        .where(
          inArray(
            billingItems.id,
            features.map((f) => f.billingitemid),
          ),
        );
      const missing = features.filter((f) => !items.some((i) => i.id === f.billingitemid)).map((f) => f.billingitemid);
      if (missing.length > 0)
        throw new PermanentJobError(`Billing item(s) ${missing.join(', ')} do not exist.`, 'not_found');

      const to = email ?? contact.email;
      const message = featureChangeConfirmationEmail({
        recipientName: contact.name,
        storeName: contact.store.doingBusinessAs,
        changes: features.map((f) => ({
          feature: items.find((i) => i.id === f.billingitemid)!.name,
          action: f.action,
        })),
        ...(effectiveOn ? { effectiveOn } : {}),
        ...(reference ? { reference } : {}),
      });
      const mail = await ctx.mail.send({ to, ...message, related: { type: 'store', id: storeId } }, { db: tx });
      await writeAudit(tx, {
        ...systemActor(job),
        at: now,
        action: 'feature_change_email_sent',
        entity: 'store',
        entityId: storeId,
        customerId: contact.store.customerId,
        after: { to, mail_id: mail.id, features, requested_by: requesterEmail(request) },
      });
      return { storeId, to, mailId: mail.id };
    });
  },
};

/** The offer of a prepared change: skipped (no mail) when the change was canceled or decided meanwhile. */
function mailOffer(
  ctx: AppContext,
  request: JobRequest<typeof JOB_QUEUE.featureChangeEmail>,
  job: JobRef,
  changeId: number,
) {
  return applyOnce(ctx, job, async (tx, now, mark) => {
    const [change] = await tx.select().from(featureChanges).where(eq(featureChanges.id, changeId));
    if (!change) throw new PermanentJobError(`Feature change ${changeId} does not exist.`, 'not_found');
    mark.customerId = change.customerId;
    if (change.status !== 'sent') return { featureChangeId: changeId, skipped: `the change is ${change.status}` };
    const contact = await merchantContact(tx, change.storeId, ['owner', 'general', 'billing']);
    if (!contact) throw new PermanentJobError(`Store ${change.storeId} does not exist.`, 'not_found');
    const staffId =
      request.requestedBy.actorType === 'staff' && typeof request.requestedBy.actorId === 'number'
        ? request.requestedBy.actorId
        : null;
    const link = await issueLinkToken(tx, {
      purpose: 'features',
      subjectType: 'feature_change',
      subjectId: change.id,
      now,
      ttlMs: FEATURE_CHANGE_LINK_TTL_MS,
      createdByStaffId: staffId,
    });
    await tx
      .update(featureChanges)
      .set({ linkTokenId: link.id, updatedAt: now })
      .where(eq(featureChanges.id, change.id));
    const to = request.input.email ?? contact.email;
    const lines = change.changes as FeatureChangeLine[];
    const message = featureChangeOfferEmail({
      recipientName: contact.name,
      storeName: contact.store.doingBusinessAs,
      changes: lines.map((l) => ({ feature: l.name, action: l.action, monthlyCents: l.monthly_cents })),
      currentMonthlyCents: change.currentMonthlyCents,
      newMonthlyCents: change.newMonthlyCents,
      currency: change.currency as CurrencyCode,
      effectiveOn: change.effectiveOn,
      link: featureChangeLink(ctx.config.publicUrl, link.token),
      expiresAt: link.expiresAt,
    });
    const mail = await ctx.mail.send({ to, ...message, related: { type: 'store', id: change.storeId } }, { db: tx });
    await writeAudit(tx, {
      ...systemActor(job),
      at: now,
      action: 'feature_change_link_sent',
      entity: 'feature_change',
      entityId: change.id,
      customerId: change.customerId,
      after: {
        feature_change_id: change.id,
        store_id: change.storeId,
        to,
        mail_id: mail.id,
        link_token_id: link.id,
        expires_at: link.expiresAt.toISOString(),
        requested_by: requesterEmail(request),
      },
    });
    return { featureChangeId: change.id, storeId: change.storeId, to, mailId: mail.id, linkTokenId: link.id };
  });
}
