import { MAIL_TEMPLATE } from '@pos/domain';
import { escapeHtml, formatDay, htmlDocument, oneLine, PRODUCT_NAME, type RenderedEmail } from './html';

export const INVOICE_TEMPLATE = MAIL_TEMPLATE.INVOICE;

export interface InvoiceEmailInput {
  /** Who the message greets (the merchant's contact name). */
  recipientName: string;
  invoiceNumber: string;
  /** The store's DBA, or the merchant's legal name for an invoice of the customer. */
  billedFor: string;
  issuedOn: string;
  dueOn: string;
  /** Money already formatted by the domain's formatMoney ('C$1,234.00'). */
  total: string;
  balance: string;
  /** The attached PDF's file name. */
  attachmentName: string;
}

/** An invoice sent to the merchant, its PDF attached (decision 114). */
export function invoiceEmail(input: InvoiceEmailInput): RenderedEmail {
  const number = oneLine(input.invoiceNumber);
  const forWhom = oneLine(input.billedFor);
  const due = formatDay(input.dueOn);
  const settled = /^[^\d]*0\.00$/.test(input.balance);
  const owed = settled ? 'Nothing is left to pay on it.' : `The balance due is ${input.balance}, due on ${due}.`;
  return {
    template: INVOICE_TEMPLATE,
    subject: `Invoice ${number} for ${forWhom}`,
    text: [
      `Hello ${oneLine(input.recipientName)},`,
      '',
      `Attached is invoice ${number} for ${forWhom}, issued on ${formatDay(input.issuedOn)}, total ${input.total}.`,
      owed,
      '',
      `Attachment: ${input.attachmentName}`,
      '',
      'If you have a question about this invoice, reply to this message or contact our support team.',
      '',
      PRODUCT_NAME,
    ].join('\n'),
    html: htmlDocument(`Invoice ${number}`, [
      `<p>Hello ${escapeHtml(oneLine(input.recipientName))},</p>`,
      `<p>Attached is invoice <strong>${escapeHtml(number)}</strong> for ${escapeHtml(forWhom)}, issued on ${escapeHtml(formatDay(input.issuedOn))}, total ${escapeHtml(input.total)}.</p>`,
      `<p>${escapeHtml(owed)}</p>`,
      `<p>Attachment: ${escapeHtml(input.attachmentName)}</p>`,
      '<p>If you have a question about this invoice, reply to this message or contact our support team.</p>',
    ]),
    links: [],
  };
}
