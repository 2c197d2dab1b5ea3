import { MAIL_TEMPLATE } from '@pos/domain';
import { button, escapeHtml, formatDay, htmlDocument, oneLine, PRODUCT_NAME, type RenderedEmail } from './html';

export const PAYMENT_FAILED_TEMPLATE = MAIL_TEMPLATE.PAYMENT_FAILED;

export interface PaymentFailedInput {
  recipientName: string;
  storeName: string;
  invoiceNumber: string;
  /** '$125.00' / 'C$125.00' (the one money formatter). */
  amount: string;
  /** Why the charge failed ('Insufficient funds'). */
  reason: string;
  /** The day of the next automatic attempt (YYYY-MM-DD), or null when none is planned. */
  nextRetryOn: string | null;
  /** `${PUBLIC_URL}/#/customer/payment/{token}` */
  link: string;
  expiresAt: Date;
}

/** A charge of an invoice failed (a soft decline): what, why, when we try again, and a link to pay now (decision 116). */
export function paymentFailedEmail(input: PaymentFailedInput): RenderedEmail {
  const store = oneLine(input.storeName);
  const until = formatDay(input.expiresAt);
  const next = input.nextRetryOn
    ? `We will try again on ${input.nextRetryOn}.`
    : 'We will not try this payment method again.';
  const subject = `Payment of ${input.amount} for ${store} failed (invoice ${oneLine(input.invoiceNumber)})`;
  return {
    template: PAYMENT_FAILED_TEMPLATE,
    subject,
    text: [
      `Hello ${oneLine(input.recipientName)},`,
      '',
      `We could not collect ${input.amount} for invoice ${oneLine(input.invoiceNumber)} of ${store}: ${oneLine(input.reason)}. ${next}`,
      `To pay now, or to give us another card or bank account, open this secure link (it works until ${until}):`,
      input.link,
      '',
      'If you did not expect this message, contact our support team before using the link.',
      '',
      PRODUCT_NAME,
    ].join('\n'),
    html: htmlDocument(subject, [
      `<p>Hello ${escapeHtml(oneLine(input.recipientName))},</p>`,
      `<p>We could not collect <strong>${escapeHtml(input.amount)}</strong> for invoice ${escapeHtml(oneLine(input.invoiceNumber))} of <strong>${escapeHtml(store)}</strong>: ${escapeHtml(oneLine(input.reason))}. ${escapeHtml(next)}</p>`,
      button(input.link, 'Pay now'),
      `<p>The link works until ${escapeHtml(until)}. If the button does not work, copy this address into your browser:<br>${escapeHtml(input.link)}</p>`,
      '<p>If you did not expect this message, contact our support team before using the link.</p>',
    ]),
    links: [input.link],
  };
}
