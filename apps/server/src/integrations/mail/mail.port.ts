import type { Db } from '../../db/client';

export interface MailMessage {
  to: string;
  subject: string;
  html: string;
  text: string;
  /** A stable template name ('distributor_password_reset'), for the log and for tests. */
  template: string;
  /** The links the message carries (kept in mail_log so the local Mailbox and tests can follow them). */
  links?: string[];
  related?: { type: string; id: string | number };
  /** Files sent with the message (SMTP); the mail log keeps the message, not the files (the text names them). */
  attachments?: MailAttachment[];
}

export interface MailAttachment {
  filename: string;
  contentType: string;
  content: Uint8Array;
}

export interface MailPort {
  /** Send (or, locally, store) one message. Pass the open transaction so the log row commits with the change. */
  send(message: MailMessage, options?: { db?: Db }): Promise<{ id: number }>;
}
