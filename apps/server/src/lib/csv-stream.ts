import { Readable } from 'node:stream';

/** Rows fetched per query while streaming a CSV. */
export const CSV_PAGE_SIZE = 1000;

/** One CSV cell (RFC 4180 quoting; text that a spreadsheet would run as a formula gets a leading '). */
export function csvCell(value: unknown): string {
  if (value === null || value === undefined) return '';
  if (typeof value === 'number') return String(value);
  let text = String(value);
  if (/^[=+\-@\t\r]/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

/**
 * The CSV download of ALL rows a list query matches (decision 050's format): UTF-8 with a byte-order mark, CRLF
 * line ends, a header of the column names, the list's order. Streamed page by page (`page(limit, offset)`), so a
 * large result never sits in memory whole.
 */
export function csvStream<Row extends object>(
  columns: readonly (keyof Row & string)[],
  page: (limit: number, offset: number) => Promise<Row[]>,
): Readable {
  async function* lines() {
    yield `\uFEFF${columns.join(',')}\r\n`;
    for (let offset = 0; ; offset += CSV_PAGE_SIZE) {
      const rows = await page(CSV_PAGE_SIZE, offset);
      if (rows.length > 0) yield rows.map((r) => columns.map((c) => csvCell(r[c])).join(',') + '\r\n').join('');
      if (rows.length < CSV_PAGE_SIZE) return;
    }
  }
  return Readable.from(lines());
}
