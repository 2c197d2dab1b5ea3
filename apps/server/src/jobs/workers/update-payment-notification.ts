import { JOB_QUEUE } from '@pos/domain';
import { eq } from 'drizzle-orm';
import { terminals } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { requesterEmail, type WorkerDefinition } from '../context';
import { applyOnce, systemActor } from '../effect';
import { mailPaymentUpdateLink, merchantContact } from '../merchant-contact';
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
      const link = await mailPaymentUpdateLink(tx, ctx, contact, now, { createdByStaffId: staffId });
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
          link_token_id: link.linkTokenId,
          expires_at: link.expiresAt.toISOString(),
          mail_id: link.mailId,
          requested_by: requesterEmail(request),
        },
      });
      return {
        storeId: contact.store.id,
        to: contact.email,
        mailId: link.mailId,
        linkTokenId: link.linkTokenId,
        expiresAt: link.expiresAt.toISOString(),
      };
    });
  },
};
