import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import { logMail } from './mail-log';
import type { MailPort } from './mail.port';

/** With no mail server configured, every message is kept in `mail_log` with status 'stored' (the Mailbox). */
export function createLocalMail(database: Database, clock: Clock): MailPort {
  return {
    async send(message, options = {}) {
      return { id: await logMail(options.db ?? database.db, message, 'stored', clock.now()) };
    },
  };
}
