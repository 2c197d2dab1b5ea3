import { MAIL_TEMPLATE } from '@pos/domain';
import { button, escapeHtml, formatDay, htmlDocument, oneLine, PRODUCT_NAME, type RenderedEmail } from './html';

export const CONTRACT_SIGNING_LINK_TEMPLATE = MAIL_TEMPLATE.CONTRACT_SIGNING_LINK;

export interface ContractSigningLinkInput {
  recipientName: string;
  /** The store (doing-business-as name) the order is for. */
  storeName: string;
  /** The order's reference the merchant knows (unifiedOrderId or order number). */
  orderReference: string;
  /** The public signing page, `${PUBLIC_URL}/#/contract/{token}`. */
  link: string;
  expiresAt: Date;
}

/** The merchant's link to read and sign the contract of an order. */
export function contractSigningLinkEmail(input: ContractSigningLinkInput): RenderedEmail {
  const store = oneLine(input.storeName);
  const order = oneLine(input.orderReference);
  const until = formatDay(input.expiresAt);
  return {
    template: CONTRACT_SIGNING_LINK_TEMPLATE,
    subject: `Your contract for ${store} is ready to sign`,
    text: [
      `Hello ${oneLine(input.recipientName)},`,
      '',
      `The contract for your order ${order} (${store}) is ready. Read and sign it here (the link works until ${until}):`,
      input.link,
      '',
      'If anything in the contract looks wrong, reply to your sales representative before signing.',
      '',
      PRODUCT_NAME,
    ].join('\n'),
    html: htmlDocument(`Your contract for ${store}`, [
      `<p>Hello ${escapeHtml(oneLine(input.recipientName))},</p>`,
      `<p>The contract for your order <strong>${escapeHtml(order)}</strong> (${escapeHtml(store)}) is ready.</p>`,
      button(input.link, 'Read and sign the contract'),
      `<p>The link works until ${escapeHtml(until)}. If the button does not work, copy this address into your browser:<br>${escapeHtml(input.link)}</p>`,
      '<p>If anything in the contract looks wrong, reply to your sales representative before signing.</p>',
    ]),
    links: [input.link],
  };
}
