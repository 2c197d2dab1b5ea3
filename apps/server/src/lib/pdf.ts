import { PDFDocument, StandardFonts, rgb, type PDFFont, type PDFPage } from 'pdf-lib';

/*
 * The look every PDF of the product shares (the contract of decision 082, the invoice of decision 114): US Letter,
 * pdf-lib's standard Helvetica, which only draws WinAnsi text — every string goes through `winAnsi` (accents
 * dropped, anything else → '?').
 */

export const PAGE: [number, number] = [612, 792];
export const MARGIN = 54;
export const LINE = 14;

/** Text the standard fonts can draw: accents stripped, other non-WinAnsi characters replaced by '?'. */
export function winAnsi(text: string): string {
  return text
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[‘’]/g, "'")
    .replace(/[“”]/g, '"')
    .replace(/[–—]/g, '-')
    .replace(/[^\x20-\x7e\xa0-\xff]/g, '?');
}

/** Writes top to bottom, starting a new page when the current one is full. */
export class PdfWriter {
  page: PDFPage;
  y: number;
  constructor(
    private readonly pdf: PDFDocument,
    private readonly font: PDFFont,
    private readonly bold: PDFFont,
  ) {
    this.page = pdf.addPage(PAGE);
    this.y = PAGE[1] - MARGIN;
  }

  private room(lines: number): void {
    if (this.y - lines * LINE < MARGIN) {
      this.page = this.pdf.addPage(PAGE);
      this.y = PAGE[1] - MARGIN;
    }
  }

  text(text: string, options: { size?: number; bold?: boolean; indent?: number } = {}): void {
    const size = options.size ?? 10;
    const font = options.bold ? this.bold : this.font;
    const width = PAGE[0] - 2 * MARGIN - (options.indent ?? 0);
    for (const line of wrap(winAnsi(text), font, size, width)) {
      this.room(1);
      this.page.drawText(line, { x: MARGIN + (options.indent ?? 0), y: this.y, size, font, color: rgb(0.1, 0.1, 0.1) });
      this.y -= size + 4;
    }
  }

  row(left: string, right: string, options: { bold?: boolean } = {}): void {
    this.room(1);
    const font = options.bold ? this.bold : this.font;
    const r = winAnsi(right);
    this.page.drawText(winAnsi(left).slice(0, 80), { x: MARGIN, y: this.y, size: 10, font });
    this.page.drawText(r, { x: PAGE[0] - MARGIN - font.widthOfTextAtSize(r, 10), y: this.y, size: 10, font });
    this.y -= LINE;
  }

  gap(n = 1): void {
    this.y -= (LINE / 2) * n;
  }

  heading(text: string): void {
    this.room(3);
    this.gap();
    this.text(text, { size: 12, bold: true });
  }

  /** Start a new page unless `lines` more lines fit on this one. */
  keep(lines: number): void {
    this.room(lines);
  }
}

function wrap(text: string, font: PDFFont, size: number, width: number): string[] {
  const words = text.split(/\s+/).filter(Boolean);
  const lines: string[] = [];
  let current = '';
  for (const word of words) {
    const next = current ? `${current} ${word}` : word;
    if (font.widthOfTextAtSize(next, size) <= width || !current) current = next;
    else {
      lines.push(current);
      current = word;
    }
  }
  if (current) lines.push(current);
  return lines.length ? lines : [''];
}

/** A new PDF with its metadata and a writer on its first page (dates from the input, never the clock). */
export async function newPdf(meta: {
  title: string;
  subject: string;
  at: Date;
}): Promise<{ pdf: PDFDocument; w: PdfWriter }> {
  const pdf = await PDFDocument.create();
  pdf.setTitle(winAnsi(meta.title));
  pdf.setSubject(winAnsi(meta.subject));
  pdf.setAuthor('pos-backoffice');
  pdf.setCreationDate(meta.at);
  pdf.setModificationDate(meta.at);
  const w = new PdfWriter(
    pdf,
    await pdf.embedFont(StandardFonts.Helvetica),
    await pdf.embedFont(StandardFonts.HelveticaBold),
  );
  return { pdf, w };
}

/** A postal address on one line ('1 Main St, Apt 2, Austin, TX 78701, US'); '' when there is none. */
export function postalAddressLine(
  a:
    | {
        address1?: string | null;
        address2?: string | null;
        city?: string | null;
        state?: string | null;
        zip?: string | null;
        country?: string | null;
      }
    | null
    | undefined,
): string {
  if (!a) return '';
  return [a.address1, a.address2, a.city, [a.state, a.zip].filter(Boolean).join(' '), a.country]
    .map((v) => (v == null ? '' : String(v).trim()))
    .filter(Boolean)
    .join(', ');
}
