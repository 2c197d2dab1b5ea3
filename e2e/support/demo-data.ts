/**
 * A terminal's elmer id in the demo seed (apps/server/src/db/seed/index.ts): 3,000,000 + id·7 + (id mod 7),
 * where `id` is the terminal's row id (identity from 1, decision 013). Terminal 1 exists in every fresh
 * demo database. There is no terminal search API yet; when the customers issue adds one, look it up there.
 */
export function demoElmerId(terminalId: number): string {
  return String(3_000_000 + terminalId * 7 + (terminalId % 7));
}
