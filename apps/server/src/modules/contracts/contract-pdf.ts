import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import { formatMoney, type OrderTotals } from '@pos/domain';
import { MARGIN, newPdf, PAGE, winAnsi } from '../../lib/pdf';

/*
 * The contract PDF of an order (decision 082): made with pdf-lib's standard fonts, which only draw WinAnsi text,
 * so every string goes through `winAnsi` (accents dropped, anything else → '?').
 */

export interface ContractParty {
  legalName: string;
  contactName: string;
  email: string;
  phone: string;
  fedTaxIdLast4: string;
  homeAddress: string;
  billingAddress: string;
}

export interface ContractStore {
  dba: string;
  name: string;
  address: string;
  phone: string;
}

export interface ContractInput {
  orderId: number;
  unifiedOrderId: string;
  versionNo: number;
  createdAt: Date;
  merchant: ContractParty;
  store: ContractStore;
  orderTypeLabel: string;
  terminals: number;
  totals: OrderTotals;
  hardwarePlan: string;
  recurringPlan: string;
  paymentMethods: string[];
}

export const CONTRACT_TERMS = [
  'Term. The service plan starts on the installation date and renews automatically each billing interval until either party cancels in writing with 30 days notice.',
  'Hardware. Title to the hardware passes to the merchant when it is paid in full. Hardware bought on installments carries 5% interest on the financed amount.',
  "Payments. The merchant authorizes the provider to charge the payment methods named in this contract for the amounts and on the schedule shown, and for applicable taxes and the fees in the provider's published schedule (failed payment, reactivation, restocking).",
  'Cancellation. Hardware returned within 30 days of delivery in original condition is refunded less a restocking fee. Service fees already billed are not refunded.',
  'Electronic signature. The merchant agrees that signing electronically has the same effect as a handwritten signature.',
];

/** The contract PDF. Deterministic for one input (dates come from the input, not the clock). */
export async function buildContractPdf(input: ContractInput): Promise<Uint8Array> {
  const { pdf, w } = await newPdf({
    title: `Contract ${input.unifiedOrderId} v${input.versionNo}`,
    subject: `Order ${input.orderId} for ${input.merchant.legalName}`,
    at: input.createdAt,
  });
  const money = (cents: number) => formatMoney(cents, input.totals.currency);

  w.text('Point-of-sale services agreement', { size: 18, bold: true });
  w.text(
    `Order ${input.unifiedOrderId} (${input.orderTypeLabel}) - contract version ${input.versionNo} - ${input.createdAt.toISOString().slice(0, 10)}`,
  );

  w.heading('Merchant');
  w.text(input.merchant.legalName, { bold: true });
  w.text(`Contact: ${input.merchant.contactName} - ${input.merchant.email} - ${input.merchant.phone}`);
  w.text(`Federal tax id: ***${input.merchant.fedTaxIdLast4}`);
  w.text(`Legal address: ${input.merchant.homeAddress}`);
  w.text(`Billing address: ${input.merchant.billingAddress}`);

  w.heading('Store');
  w.text(`${input.store.dba} (${input.store.name})`, { bold: true });
  w.text(`${input.store.address} - ${input.store.phone}`);
  if (input.terminals > 0) w.text(`Terminals: ${input.terminals}`);

  w.heading('Hardware and one-time charges');
  const oneTime = input.totals.lines.filter((l) => l.section === 'hardware' || l.section === 'charge');
  if (oneTime.length === 0) w.text('None.');
  for (const line of oneTime) w.row(`${line.quantity} x ${line.description}`, money(line.amount_cents));
  w.row('Subtotal', money(input.totals.subtotalCents), { bold: true });
  for (const line of input.totals.lines.filter((l) => l.section === 'discount'))
    w.row(line.description, money(line.amount_cents));
  w.row('Sales tax', money(input.totals.taxCents));
  w.row(`Total (${input.totals.currency})`, money(input.totals.totalCents), { bold: true });

  w.heading('Payment plans');
  w.text(`Hardware: ${input.hardwarePlan}`);
  if (input.totals.installments) {
    const i = input.totals.installments;
    w.text(`${i.count} installments of ${money(i.amountCents)} (interest ${money(i.interestCents)} at 5%).`, {
      indent: 12,
    });
  }
  w.text(
    `Recurring: ${input.recurringPlan} - ${money(input.totals.recurringCents)} every ${input.totals.recurringIntervalMonths === 12 ? '12 months' : 'month'}`,
  );
  w.heading('Payment methods');
  for (const m of input.paymentMethods.length ? input.paymentMethods : ['To be provided by the merchant.']) w.text(m);

  w.heading('Terms');
  for (const [i, term] of CONTRACT_TERMS.entries()) w.text(`${i + 1}. ${term}`);

  // The signature block: its heading and line, with the bottom of the same page left free for the stamp.
  w.keep(14);
  w.heading('Signature');
  w.text('Signed by: ______________________________    Date: ______________');
  return pdf.save({ useObjectStreams: false });
}

export interface SignatureStamp {
  signerName: string;
  signedAt: Date;
  ip: string;
  png: Uint8Array;
}

/** A copy of the contract with the signature stamped into the free bottom of its last page (kept free by buildContractPdf). */
export async function stampSignature(contract: Uint8Array, stamp: SignatureStamp): Promise<Uint8Array> {
  const pdf = await PDFDocument.load(contract);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.getPage(pdf.getPageCount() - 1);
  const image = await pdf.embedPng(stamp.png);
  const scale = Math.min(200 / image.width, 50 / image.height, 1);
  const top = MARGIN + 110;
  page.drawRectangle({
    x: MARGIN - 4,
    y: MARGIN - 6,
    width: PAGE[0] - 2 * MARGIN + 8,
    height: 124,
    color: rgb(1, 1, 1),
    borderColor: rgb(0.6, 0.6, 0.6),
    borderWidth: 0.5,
  });
  page.drawText('Electronically signed', { x: MARGIN, y: top, size: 11, font });
  page.drawImage(image, { x: MARGIN, y: top - 60, width: image.width * scale, height: image.height * scale });
  const lines = [
    `Signed by: ${stamp.signerName}`,
    `Signed at: ${stamp.signedAt.toISOString()}`,
    `From IP address: ${stamp.ip}`,
  ];
  lines.forEach((line, i) => page.drawText(winAnsi(line), { x: MARGIN, y: top - 76 - i * 13, size: 10, font }));
  pdf.setModificationDate(stamp.signedAt);
  return pdf.save({ useObjectStreams: false });
}
