import type { Db } from '../../db/client';
import { mailLog } from '../../db/schema';
import type { MailMessage } from './mail.port';

/** One row of the outbound mail log (to, template, time, status) with the message itself. */
export async function logMail(db: Db, message: MailMessage, status: 'stored' | 'queued', at: Date): Promise<number> {
  const [row] = await db
    .insert(mailLog)
    .values({
      to: message.to,
      subject: message.subject,
      template: message.template,
      status,
      html: message.html,
      text: message.text,
      links: message.links ?? [],
      relatedType: message.related?.type ?? null,
      relatedId: message.related ? String(message.related.id) : null,
      createdAt: at,
    })
    .returning({ id: mailLog.id });
  return row!.id;
}
