import { formatDisplayDate, formatMoney, invoiceItemLines, type InvoicePage } from '@pos/domain';
import type { AddressJson } from '../../db/schema';
import { newPdf, postalAddressLine } from '../../lib/pdf';

/*
 * The invoice PDF (decision 114): the contract PDF's look (lib/pdf.ts), the provider's and the merchant's
 * addresses, the lines with their billing items, the tax once — one line per component named for the jurisdiction,
 * a Canadian invoice's registration numbers under it (decision 149) —, the total (the lines add up to it), what was
 * paid, credited and written off, and the balance — every figure the invoice page shows, i.e. the ledger's (decision 112), money through formatMoney
 * ('$' for USD, 'C$' for CAD).
 */

export interface InvoicePdfInput {
  invoice: InvoicePage;
  issuer: { name: string; address: string };
  merchant: { legalName: string; contactName: string; billingAddress: AddressJson | null };
  store: { dba: string; name: string; address: AddressJson | null } | null;
}

/** 'INV-2026-000123' → 'invoice-INV-2026-000123.pdf'. */
export function invoicePdfFileName(invoiceNumber: string): string {
  return `invoice-${invoiceNumber.replace(/[^A-Za-z0-9._-]/g, '_')}.pdf`;
}

/** The invoice PDF. Deterministic for one input (its dates are the invoice's, not the clock's). */
export async function buildInvoicePdf(input: InvoicePdfInput): Promise<Uint8Array> {
  const inv = input.invoice;
  const { pdf, w } = await newPdf({
    title: `Invoice ${inv.invoice_number}`,
    subject: `Invoice ${inv.invoice_number} for ${inv.legal_name}`,
    at: new Date(`${inv.issued_on}T00:00:00Z`),
  });
  const money = (cents: number) => formatMoney(cents, inv.currency);
  const ledger = inv.ledger;

  w.text(`Invoice ${inv.invoice_number}`, { size: 18, bold: true });
  w.text(
    `${inv.type_label} - issued ${formatDisplayDate(inv.issued_on)} - due ${formatDisplayDate(inv.due_on)}${inv.period_start ? ` - period ${formatDisplayDate(inv.period_start)} to ${inv.period_end ? formatDisplayDate(inv.period_end) : ''}` : ''}`,
  );
  w.text(`Status: ${inv.status_label}${inv.overdue ? ' (overdue)' : ''} - currency ${inv.currency}`);

  w.heading('From');
  w.text(input.issuer.name, { bold: true });
  w.text(input.issuer.address);

  w.heading('Bill to');
  w.text(input.merchant.legalName, { bold: true });
  if (input.merchant.contactName) w.text(`Attn: ${input.merchant.contactName}`);
  w.text(postalAddressLine(input.merchant.billingAddress) || 'No billing address on file.');
  if (input.store) {
    w.text(`Store: ${input.store.dba}${input.store.name ? ` (${input.store.name})` : ''} - store #${inv.store_id}`);
    const storeAddress = postalAddressLine(input.store.address);
    if (storeAddress) w.text(storeAddress);
  }

  w.heading('Lines');
  const items = invoiceItemLines(inv.lines);
  if (items.length === 0) w.text('None.');
  for (const line of items) {
    const what = line.description && line.description !== line.billing_item_name ? ` - ${line.description}` : '';
    w.row(`${line.quantity} x ${line.billing_item_name}${what}`, money(line.amount_cents));
  }
  for (const tax of inv.tax_lines) w.row(tax.label, money(tax.amount_cents));
  w.row(`Total (${inv.currency})`, money(inv.total_cents), { bold: true });
  for (const r of inv.tax_registrations) w.text(`${r.label} ${r.number}`);

  w.heading('Account');
  w.row('Paid', money(ledger.paid_cents));
  if (ledger.credited_cents > 0) w.row('Credits', money(ledger.credited_cents));
  if (ledger.written_off_cents > 0) w.row('Written off', money(ledger.written_off_cents));
  if (ledger.reversed_cents > 0) w.row('Reversed', money(ledger.reversed_cents));
  if (ledger.debited_cents > 0) w.row('Money paid back', money(ledger.debited_cents));
  w.row('Balance due', money(inv.balance_cents), { bold: true });
  if (ledger.overpaid_cents > 0) w.text(`Credit balance in your favour: ${money(ledger.overpaid_cents)}.`);

  w.gap(2);
  w.text(
    inv.balance_cents > 0
      ? `Please pay ${money(inv.balance_cents)} by ${inv.due_on}, quoting invoice ${inv.invoice_number}.`
      : 'Nothing is left to pay on this invoice. Thank you.',
  );
  return pdf.save({ useObjectStreams: false });
}
