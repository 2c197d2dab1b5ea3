import type { MailSummary } from '@pos/domain';
import { downloadFile } from '../../../lib/download';

/**
 * CSV for exports (RFC 4180): fields with a comma, quote or line break are quoted, quotes doubled, lines
 * end in CRLF. A text field that a spreadsheet would run as a formula (starting with =, +, -, @, tab or
 * CR) gets a leading apostrophe (OWASP "CSV injection"); decision 027.
 */
export type CsvValue = string | number | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return '';
  let text = String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [header, ...rows].map((row) => row.map(csvField).join(',')).join('\r\n') + '\r\n';
}

/** Offer `text` as a CSV file download named `fileName`. */
export function downloadCsv(fileName: string, text: string): void {
  // A byte-order mark, so spreadsheet programs read the file as UTF-8.
  downloadFile(fileName, new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' }));
}

/** The Mailbox export: one row per message, timestamps as ISO 8601 (UTC), links separated by spaces. */
export const MAIL_CSV_HEADER = ['Id', 'To', 'Subject', 'Template', 'Status', 'Created', 'Sent', 'Links'] as const;

export function mailCsv(items: readonly MailSummary[]): string {
  return toCsv(
    MAIL_CSV_HEADER,
    items.map((m) => [m.id, m.to, m.subject, m.template, m.status, m.created_at, m.sent_at, m.links.join(' ')]),
  );
}
