import type { AppConfig } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { createLocalMail } from './local-mail';
import type { MailPort } from './mail.port';
import { createSmtpMail } from './smtp-mail';

/** SMTP when SMTP_URL is set; otherwise every message is kept for the staff Mailbox page. */
export function createMail(config: AppConfig, database: Database, clock: Clock): MailPort {
  if (config.smtpUrl) return createSmtpMail(database, clock, { url: config.smtpUrl, from: config.mailFrom });
  return createLocalMail(database, clock);
}
