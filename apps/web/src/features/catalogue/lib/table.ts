import { downloadFile } from '../../../lib/download';

/*
 * The catalogue lists are read whole (tens to hundreds of rows; decision 126), so filter, sort, paging and the CSV
 * are done here, on the rows as read.
 */

export type CellValue = string | number | boolean | null;

export interface Column<T> {
  readonly key: string;
  readonly label: string;
  /** The value sorted on and written to the CSV. */
  readonly value: (row: T) => CellValue;
}

export interface SortState {
  readonly key: string;
  readonly desc: boolean;
}

export const PAGE_SIZE = 25;

function compare(a: CellValue, b: CellValue): number {
  if (a === b) return 0;
  if (a === null) return 1;
  if (b === null) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  return String(a).localeCompare(String(b), 'en', { numeric: true, sensitivity: 'base' });
}

/** Rows whose text (any column) holds `filter`, case-insensitive; sorted (nulls last); one page of them. */
export function viewOf<T>(
  rows: readonly T[],
  columns: readonly Column<T>[],
  opts: { filter: string; sort: SortState | null; page: number },
): { matching: T[]; page: T[] } {
  const needle = opts.filter.trim().toLowerCase();
  const matching =
    needle === ''
      ? [...rows]
      : rows.filter((r) =>
          columns.some((c) =>
            String(c.value(r) ?? '')
              .toLowerCase()
              .includes(needle),
          ),
        );
  const col = opts.sort && columns.find((c) => c.key === opts.sort!.key);
  if (col) {
    matching.sort((a, b) => {
      const va = col.value(a);
      const vb = col.value(b);
      // Nulls last either way.
      if (va === null || vb === null) return compare(va, vb);
      return opts.sort!.desc ? compare(vb, va) : compare(va, vb);
    });
  }
  const start = (opts.page - 1) * PAGE_SIZE;
  return { matching, page: matching.slice(start, start + PAGE_SIZE) };
}

const FORMULA_START = /^[=+\-@\t\r]/;

/** One CSV field (RFC 4180; a text that a spreadsheet would run as a formula gets a leading apostrophe). */
export function csvField(value: CellValue): string {
  if (value === null) return '';
  let text = typeof value === 'boolean' ? (value ? 'Yes' : 'No') : String(value);
  if (typeof value === 'string' && FORMULA_START.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function toCsv<T>(columns: readonly Column<T>[], rows: readonly T[]): string {
  const lines = [columns.map((c) => csvField(c.label)), ...rows.map((r) => columns.map((c) => csvField(c.value(r))))];
  return lines.map((l) => l.join(',')).join('\r\n') + '\r\n';
}

export function downloadCsv(fileName: string, text: string): void {
  downloadFile(fileName, new Blob(['\uFEFF', text], { type: 'text/csv;charset=utf-8' }));
}

/** Cents as the plain amount a person types ('1499.00'), '' for none. */
export function centsToInput(cents: number | null | undefined): string {
  return cents === null || cents === undefined ? '' : (cents / 100).toFixed(2);
}
