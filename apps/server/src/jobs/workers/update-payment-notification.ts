import { JOB_QUEUE } from '@pos/domain';
import { eq } from 'drizzle-orm';
import { terminals } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { paymentUpdateLinkEmail } from '../../integrations/mail/templates';
import { issueLinkToken, PAYMENT_UPDATE_LINK_TTL_MS, paymentUpdateLink } from '../../lib/link-tokens';
import { requesterEmail, type WorkerDefinition } from '../context';
import { applyOnce, systemActor } from '../effect';
import { merchantContact } from '../merchant-contact';
import { PermanentJobError } from '../queue';

/**
 * E-mail the merchant of the terminal's store a link to update the payment method: a 'payment_update' link
 * token for the store (7 days; earlier unused links of the store stop working), sent to the store's billing
 * e-mail (else owner, general, else the customer's). The job output never holds the token.
 */
export const updatePaymentNotificationWorker: WorkerDefinition<typeof JOB_QUEUE.updatePaymentNotification> = {
  queue: JOB_QUEUE.updatePaymentNotification,
  async run(ctx, request, job) {
    const elmerId = request.input.elmer_id;
    return applyOnce(ctx, job, async (tx, now, mark) => {
      const [terminal] = await tx
        .select({ storeId: terminals.storeId })
        .from(terminals)
        .where(eq(terminals.elmerId, elmerId));
      if (!terminal) throw new PermanentJobError(`Terminal ${elmerId} does not exist.`, 'not_found');
      const contact = await merchantContact(tx, terminal.storeId, ['billing', 'owner', 'general']);
      if (!contact) throw new PermanentJobError(`The store of terminal ${elmerId} does not exist.`, 'not_found');
      mark.customerId = contact.store.customerId;

      const staffId =
        request.requestedBy.actorType === 'staff' && typeof request.requestedBy.actorId === 'number'
          ? request.requestedBy.actorId
          : null;
      const link = await issueLinkToken(tx, {
        purpose: 'payment_update',
        subjectType: 'store',
        subjectId: contact.store.id,
        now,
        ttlMs: PAYMENT_UPDATE_LINK_TTL_MS,
        createdByStaffId: staffId,
      });
      const message = paymentUpdateLinkEmail({
        recipientName: contact.name,
        storeName: contact.store.doingBusinessAs,
        link: paymentUpdateLink(ctx.config.publicUrl, link.token),
        expiresAt: link.expiresAt,
      });
      const mail = await ctx.mail.send(
        { to: contact.email, ...message, related: { type: 'store', id: contact.store.id } },
        { db: tx },
      );
      await writeAudit(tx, {
        ...systemActor(job),
        at: now,
        action: 'payment_update_link_sent',
        entity: 'store',
        entityId: contact.store.id,
        customerId: contact.store.customerId,
        after: {
          elmer_id: elmerId,
          to: contact.email,
          link_token_id: link.id,
          expires_at: link.expiresAt.toISOString(),
          mail_id: mail.id,
          requested_by: requesterEmail(request),
        },
      });
      return {
        storeId: contact.store.id,
        to: contact.email,
        mailId: mail.id,
        linkTokenId: link.id,
        expiresAt: link.expiresAt.toISOString(),
      };
    });
  },
};
