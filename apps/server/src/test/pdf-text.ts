import { inflateSync } from 'node:zlib';

/**
 * The text a PDF made by lib/pdf.ts draws, one string per drawn line, in drawing order: every content stream
 * (inflated when compressed) read for its text-showing operators (`<hex> Tj`, `(literal) Tj`). Enough for the
 * product's own PDFs (standard fonts, WinAnsi); not a general PDF reader.
 */
export function pdfTextLines(bytes: Uint8Array): string[] {
  const raw = Buffer.from(bytes).toString('latin1');
  const lines: string[] = [];
  for (const m of raw.matchAll(/stream\r?\n([\s\S]*?)\r?\nendstream/g)) {
    const body = Buffer.from(m[1]!, 'latin1');
    let text: string;
    try {
      text = inflateSync(body).toString('latin1');
    } catch {
      text = body.toString('latin1');
    }
    for (const op of text.matchAll(/<([0-9A-Fa-f]*)>\s*Tj|\(((?:\\.|[^\\)])*)\)\s*Tj/g)) {
      lines.push(
        op[1] !== undefined ? Buffer.from(op[1], 'hex').toString('latin1') : op[2]!.replace(/\\([\\()])/g, '$1'),
      );
    }
  }
  return lines;
}
