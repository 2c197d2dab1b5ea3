import { MAIL_TEMPLATE } from '@pos/domain';
import { button, escapeHtml, htmlDocument, oneLine, PRODUCT_NAME, type RenderedEmail } from './html';

export const DISTRIBUTOR_PASSWORD_RESET_TEMPLATE = MAIL_TEMPLATE.DISTRIBUTOR_PASSWORD_RESET;

export interface DistributorPasswordResetInput {
  name: string;
  /** `${PUBLIC_URL}/#/distributor/passsword/reset/{token}` */
  link: string;
  /** How long the link works. */
  ttlMinutes: number;
}

/** A distributor's single-use password-reset link. */
export function distributorPasswordResetEmail(input: DistributorPasswordResetInput): RenderedEmail {
  return {
    template: DISTRIBUTOR_PASSWORD_RESET_TEMPLATE,
    subject: `Reset your ${PRODUCT_NAME} password`,
    text: [
      `Hello ${oneLine(input.name)},`,
      '',
      `Someone (we hope you) asked to reset the password of your ${PRODUCT_NAME} distributor account.`,
      `Open this link within ${input.ttlMinutes} minutes to choose a new password (it works once):`,
      input.link,
      '',
      'If you did not ask for this, ignore this message; your password stays as it is.',
    ].join('\n'),
    html: htmlDocument(`Reset your ${PRODUCT_NAME} password`, [
      `<p>Hello ${escapeHtml(oneLine(input.name))},</p>`,
      `<p>Someone (we hope you) asked to reset the password of your ${escapeHtml(PRODUCT_NAME)} distributor account.</p>`,
      button(input.link, 'Choose a new password'),
      `<p>The link works once, within ${input.ttlMinutes} minutes. If the button does not work, copy this address into your browser:<br>${escapeHtml(input.link)}</p>`,
      '<p>If you did not ask for this, ignore this message; your password stays as it is.</p>',
    ]),
    links: [input.link],
  };
}
