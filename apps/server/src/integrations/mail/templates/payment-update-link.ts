import { MAIL_TEMPLATE } from '@pos/domain';
import { button, escapeHtml, formatDay, htmlDocument, oneLine, PRODUCT_NAME, type RenderedEmail } from './html';

export const PAYMENT_UPDATE_LINK_TEMPLATE = MAIL_TEMPLATE.PAYMENT_UPDATE_LINK;

export interface PaymentUpdateLinkInput {
  /** Who the message greets (the customer's contact name). */
  recipientName: string;
  /** The store (doing-business-as name) the payment method pays for. */
  storeName: string;
  /** `${PUBLIC_URL}/#/customer/payment/{token}` */
  link: string;
  expiresAt: Date;
}

/** The merchant's link to update the payment method of a store. */
export function paymentUpdateLinkEmail(input: PaymentUpdateLinkInput): RenderedEmail {
  const store = oneLine(input.storeName);
  const until = formatDay(input.expiresAt);
  return {
    template: PAYMENT_UPDATE_LINK_TEMPLATE,
    subject: `Update the payment method for ${store}`,
    text: [
      `Hello ${oneLine(input.recipientName)},`,
      '',
      `Please update the payment method we charge for ${store}. Open this secure link (it works until ${until}):`,
      input.link,
      '',
      'If you did not expect this message, contact our support team before using the link.',
      '',
      PRODUCT_NAME,
    ].join('\n'),
    html: htmlDocument(`Update the payment method for ${store}`, [
      `<p>Hello ${escapeHtml(oneLine(input.recipientName))},</p>`,
      `<p>Please update the payment method we charge for <strong>${escapeHtml(store)}</strong>.</p>`,
      button(input.link, 'Update the payment method'),
      `<p>The link works until ${escapeHtml(until)}. If the button does not work, copy this address into your browser:<br>${escapeHtml(input.link)}</p>`,
      '<p>If you did not expect this message, contact our support team before using the link.</p>',
    ]),
    links: [input.link],
  };
}
