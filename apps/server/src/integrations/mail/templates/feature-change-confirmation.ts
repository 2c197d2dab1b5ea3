import { MAIL_TEMPLATE } from '@pos/domain';
import { escapeHtml, formatDay, htmlDocument, oneLine, PRODUCT_NAME, type RenderedEmail } from './html';

export const FEATURE_CHANGE_CONFIRMATION_TEMPLATE = MAIL_TEMPLATE.FEATURE_CHANGE_CONFIRMATION;

export interface FeatureChangeConfirmationInput {
  recipientName: string;
  storeName: string;
  changes: ReadonlyArray<{ feature: string; action: 'add' | 'remove' }>;
  /** YYYY-MM-DD; default "right away". */
  effectiveOn?: string;
  /** A reference the merchant can quote (CRM or ticket number). */
  reference?: string;
}

const VERB = { add: 'Added', remove: 'Removed' } as const;

/** Confirms the software features switched on or off for a store's terminals. */
export function featureChangeConfirmationEmail(input: FeatureChangeConfirmationInput): RenderedEmail {
  const store = oneLine(input.storeName);
  const when = input.effectiveOn ? `from ${formatDay(input.effectiveOn)}` : 'right away';
  const lines = input.changes.map((c) => `${VERB[c.action]}: ${oneLine(c.feature)}`);
  const reference = input.reference ? oneLine(input.reference) : null;
  return {
    template: FEATURE_CHANGE_CONFIRMATION_TEMPLATE,
    subject: `Feature changes for ${store}`,
    text: [
      `Hello ${oneLine(input.recipientName)},`,
      '',
      `These feature changes for ${store} take effect ${when}:`,
      ...lines.map((l) => `- ${l}`),
      ...(reference ? ['', `Reference: ${reference}`] : []),
      '',
      'Your monthly bill follows these changes. Questions? Reply to this message or call our support team.',
      '',
      PRODUCT_NAME,
    ].join('\n'),
    html: htmlDocument(`Feature changes for ${store}`, [
      `<p>Hello ${escapeHtml(oneLine(input.recipientName))},</p>`,
      `<p>These feature changes for <strong>${escapeHtml(store)}</strong> take effect ${escapeHtml(when)}:</p>`,
      `<ul>${lines.map((l) => `<li>${escapeHtml(l)}</li>`).join('')}</ul>`,
      ...(reference ? [`<p>Reference: ${escapeHtml(reference)}</p>`] : []),
      '<p>Your monthly bill follows these changes. Questions? Reply to this message or call our support team.</p>',
    ]),
    links: [],
  };
}
