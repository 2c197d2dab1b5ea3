import { JOB_QUEUE } from '@pos/domain';
import { inArray } from 'drizzle-orm';
import { billingItems } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { featureChangeConfirmationEmail } from '../../integrations/mail/templates';
import { requesterEmail, type WorkerDefinition } from '../context';
import { applyOnce, systemActor } from '../effect';
import { merchantContact } from '../merchant-contact';
import { PermanentJobError } from '../queue';

/** E-mail the feature-change confirmation to the given address, else the store's owner/general/billing e-mail. */
export const featureChangeEmailWorker: WorkerDefinition<typeof JOB_QUEUE.featureChangeEmail> = {
  queue: JOB_QUEUE.featureChangeEmail,
  async run(ctx, request, job) {
    const { storeid: storeId, features, email, effectiveOn, reference } = request.input;
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
