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

/**
 * csvStream for a whole large set: pages by keyset instead of OFFSET (decision 130). `page(after, limit)` answers the
 * next `limit` rows after the key `after` (null: from the start) in the list's order, which must be total (end it
 * with a unique column); `keyOf` gives a row's key. Each page costs an index range, not a re-read of every earlier
 * row, so a million rows take linear time; one page at a time is in memory, and a page is read only when the
 * consumer has taken the previous one (the Readable's back-pressure).
 */
export function csvStreamKeyset<Row extends object, Key>(
  columns: readonly (keyof Row & string)[],
  page: (after: Key | null, limit: number) => Promise<Row[]>,
  keyOf: (row: Row) => Key,
  pageSize: number = CSV_PAGE_SIZE,
): Readable {
  async function* lines() {
    yield `\uFEFF${columns.join(',')}\r\n`;
    let after: Key | null = null;
    for (;;) {
      const rows = await page(after, pageSize);
      if (rows.length > 0) {
        yield rows.map((r) => columns.map((c) => csvCell(r[c])).join(',') + '\r\n').join('');
        after = keyOf(rows[rows.length - 1]!);
      }
      if (rows.length < pageSize) return;
    }
  }
  return Readable.from(lines());
}
