import { MAIL_TEMPLATE } from '@pos/domain';
import { button, escapeHtml, formatDay, htmlDocument, oneLine, PRODUCT_NAME, type RenderedEmail } from './html';

export interface ContractReauthorizeLinkInput {
  recipientName: string;
  storeName: string;
  orderReference: string;
  /** The public page, `${PUBLIC_URL}/#/contract/reauthorize/{token}`. */
  link: string;
  expiresAt: Date;
}

/** The merchant's link to authorize (again) the payment method of an order. */
export function contractReauthorizeLinkEmail(input: ContractReauthorizeLinkInput): RenderedEmail {
  const store = oneLine(input.storeName);
  const order = oneLine(input.orderReference);
  const until = formatDay(input.expiresAt);
  return {
    template: MAIL_TEMPLATE.CONTRACT_REAUTHORIZE_LINK,
    subject: `Please confirm the payment method for ${store}`,
    text: [
      `Hello ${oneLine(input.recipientName)},`,
      '',
      `Please confirm the payment method for your order ${order} (${store}) here (the link works until ${until}):`,
      input.link,
      '',
      PRODUCT_NAME,
    ].join('\n'),
    html: htmlDocument(`Confirm the payment method for ${store}`, [
      `<p>Hello ${escapeHtml(oneLine(input.recipientName))},</p>`,
      `<p>Please confirm the payment method for your order <strong>${escapeHtml(order)}</strong> (${escapeHtml(store)}).</p>`,
      button(input.link, 'Confirm the payment method'),
      `<p>The link works until ${escapeHtml(until)}. If the button does not work, copy this address into your browser:<br>${escapeHtml(input.link)}</p>`,
    ]),
    links: [input.link],
  };
}
