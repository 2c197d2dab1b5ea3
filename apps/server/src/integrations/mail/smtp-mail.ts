import { eq } from 'drizzle-orm';
import type { Transporter } from 'nodemailer';
import type { Database } from '../../db/client';
import { mailLog } from '../../db/schema';
import type { Clock } from '../../lib/clock';
import { logMail } from './mail-log';
import type { MailPort } from './mail.port';

/**
 * Real sending through SMTP_URL (nodemailer). Every message is logged in `mail_log` (to, template, time,
 * status 'queued' → 'sent' or 'failed' with the error); the body is kept too, so the Mailbox shows what went out.
 * The log row is written with the caller's transaction; the send itself happens at once (messages are sent by
 * workers, outside request transactions, except the distributor reset e-mail).
 */
export function createSmtpMail(database: Database, clock: Clock, options: { url: string; from: string }): MailPort {
  // nodemailer is loaded on the first message, not at start (decision 041: the server starts in < 5 s).
  let transport: Promise<Transporter> | null = null;
  const getTransport = () => (transport ??= import('nodemailer').then((m) => m.default.createTransport(options.url)));
  return {
    async send(message, sendOptions = {}) {
      const db = sendOptions.db ?? database.db;
      const id = await logMail(db, message, 'queued', clock.now());
      try {
        await (
          await getTransport()
        ).sendMail({
          from: options.from,
          to: message.to,
          subject: message.subject,
          html: message.html,
          text: message.text,
          attachments: message.attachments?.map((a) => ({
            filename: a.filename,
            contentType: a.contentType,
            content: Buffer.from(a.content),
          })),
        });
        await db.update(mailLog).set({ status: 'sent', sentAt: clock.now() }).where(eq(mailLog.id, id));
      } catch (err) {
        await db
          .update(mailLog)
          .set({ status: 'failed', error: (err as Error).message.slice(0, 1000) })
          .where(eq(mailLog.id, id));
        throw err;
      }
      return { id };
    },
  };
}
