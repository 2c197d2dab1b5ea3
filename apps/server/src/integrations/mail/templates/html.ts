import { formatDisplayDate } from '@pos/domain';
const ENTITIES: Readonly<Record<string, string>> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe for HTML content and attribute values. Every value a template puts in its HTML goes through this. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => ENTITIES[c] ?? c);
}

/** A value for a subject line or a text line: line breaks and runs of spaces become one space. */
export function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** What every template returns. `links` are the URLs the message carries (kept in mail_log for the Mailbox). */
export interface RenderedEmail {
  /** Stable template name, for the mail log and tests. */
  template: string;
  subject: string;
  html: string;
  text: string;
  links: string[];
}

export const PRODUCT_NAME = 'POS Back Office';

/** '2026-11-29T12:00:00Z' → 'Nov 29, 2026': the one way a day is written (domain formatDisplayDate; issue 30). */
export function formatDay(value: Date | string): string {
  return formatDisplayDate(value);
}

/** The HTML frame: a plain, mail-client-safe page with the paragraphs given (already escaped). */
export function htmlDocument(title: string, paragraphs: string[]): string {
  return [
    '<!doctype html>',
    '<html lang="en">',
    '<head><meta charset="utf-8"><meta name="viewport" content="width=device-width"><title>' +
      escapeHtml(title) +
      '</title></head>',
    '<body style="font-family: Arial, Helvetica, sans-serif; font-size: 15px; line-height: 1.5; color: #222;">',
    ...paragraphs,
    `<p style="color: #777; font-size: 12px;">${escapeHtml(PRODUCT_NAME)}</p>`,
    '</body>',
    '</html>',
  ].join('\n');
}

/** A link shown as a button-like anchor (href and label escaped). */
export function button(href: string, label: string): string {
  return `<p><a href="${escapeHtml(href)}" style="display: inline-block; padding: 10px 18px; background: #c62828; color: #fff; text-decoration: none; border-radius: 4px;">${escapeHtml(label)}</a></p>`;
}
