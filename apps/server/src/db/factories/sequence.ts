/**
 * Unique values for factory defaults within one process: a counter plus a per-process random prefix,
 * so two test files writing to the same PostgreSQL database never collide on unique columns.
 */
let counter = 0;
const run = Math.floor(Math.random() * 36 ** 4)
  .toString(36)
  .padStart(4, '0');

/** A fresh positive integer (1, 2, 3 …) for this process. */
export function nextSeq(): number {
  counter += 1;
  return counter;
}

/** A unique token such as `k3x9-17`, usable in emails, names and codes. */
export function uniqueSuffix(): string {
  return `${run}-${nextSeq()}`;
}

/** A unique digit string of the given length (for ids such as elmer ids and serials). */
export function uniqueDigits(length: number): string {
  const base = Number.parseInt(run, 36) % 10 ** Math.max(1, length - 6);
  const n = (nextSeq() % 1_000_000).toString().padStart(6, '0');
  return `${base.toString().padStart(length - 6, '0')}${n}`.slice(-length);
}
