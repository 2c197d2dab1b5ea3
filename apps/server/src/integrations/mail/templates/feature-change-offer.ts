import { formatMoney, MAIL_TEMPLATE, type CurrencyCode } from '@pos/domain';
import { button, escapeHtml, formatDay, htmlDocument, oneLine, PRODUCT_NAME, type RenderedEmail } from './html';

export const FEATURE_CHANGE_OFFER_TEMPLATE = MAIL_TEMPLATE.FEATURE_CHANGE_OFFER;

export interface FeatureChangeOfferInput {
  recipientName: string;
  storeName: string;
  changes: ReadonlyArray<{ feature: string; action: 'add' | 'remove'; monthlyCents: number }>;
  currentMonthlyCents: number;
  newMonthlyCents: number;
  currency: CurrencyCode;
  /** YYYY-MM-DD: the first billing day at the new amount. */
  effectiveOn: string;
  /** `${PUBLIC_URL}/#/customer/features/{token}` */
  link: string;
  expiresAt: Date;
}

const VERB = { add: 'Add', remove: 'Remove' } as const;

/** A feature change staff prepared, for the merchant to accept or decline through the link (decision 123). */
export function featureChangeOfferEmail(input: FeatureChangeOfferInput): RenderedEmail {
  const store = oneLine(input.storeName);
  const money = (cents: number) => formatMoney(cents, input.currency);
  const lines = input.changes.map((c) => `${VERB[c.action]}: ${oneLine(c.feature)} (${money(c.monthlyCents)} a month)`);
  const amounts = `Your monthly amount changes from ${money(input.currentMonthlyCents)} to ${money(input.newMonthlyCents)} from ${formatDay(input.effectiveOn)}.`;
  const until = formatDay(input.expiresAt);
  return {
    template: FEATURE_CHANGE_OFFER_TEMPLATE,
    subject: `Please review the feature change for ${store}`,
    text: [
      `Hello ${oneLine(input.recipientName)},`,
      '',
      `We prepared these feature changes for ${store}:`,
      ...lines.map((l) => `- ${l}`),
      '',
      amounts,
      '',
      `Accept or decline them here (the link works until ${until}):`,
      input.link,
      '',
      'Nothing changes until you accept. If you did not expect this message, contact our support team.',
      '',
      PRODUCT_NAME,
    ].join('\n'),
    html: htmlDocument(`Please review the feature change for ${store}`, [
      `<p>Hello ${escapeHtml(oneLine(input.recipientName))},</p>`,
      `<p>We prepared these feature changes for <strong>${escapeHtml(store)}</strong>:</p>`,
      `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`,
      `<p>${escapeHtml(amounts)}</p>`,
      button(input.link, 'Review the change'),
      `<p>The link works until ${escapeHtml(until)}. If the button does not work, copy this address into your browser:<br>${escapeHtml(input.link)}</p>`,
      '<p>Nothing changes until you accept. If you did not expect this message, contact our support team.</p>',
    ]),
    links: [input.link],
  };
}
