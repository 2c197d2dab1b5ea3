import type { Database } from '../../db/client';
import { mailLog } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import type { MailPort } from './mail.port';

/** With no mail server configured, every message is kept in `mail_log` with status 'stored' (the Mailbox). */
export function createLocalMail(database: Database, clock: Clock): MailPort {
  return {
    async send(message, options = {}) {
      const db = options.db ?? database.db;
      const [row] = await db
        .insert(mailLog)
        .values({
          to: message.to,
          subject: message.subject,
          template: message.template,
          status: 'stored',
          html: message.html,
          text: message.text,
          links: message.links ?? [],
          relatedType: message.related?.type ?? null,
          relatedId: message.related ? String(message.related.id) : null,
          createdAt: clock.now(),
        })
        .returning({ id: mailLog.id });
      return { id: row!.id };
    },
  };
}
