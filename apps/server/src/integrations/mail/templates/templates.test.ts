import { describe, expect, it } from 'vitest';
import {
  contractSigningLinkEmail,
  distributorPasswordResetEmail,
  escapeHtml,
  featureChangeConfirmationEmail,
  paymentUpdateLinkEmail,
  type RenderedEmail,
} from '.';

const EVIL = `<script>alert("x")</script> & 'Co'`;
const LINK = 'https://pos.example.com/#/customer/payment/abcDEF123_-x?a=1&b="2"';
const expires = new Date('2026-11-29T12:00:00Z');

const rendered: Array<[string, RenderedEmail]> = [
  [
    'payment-method update link',
    paymentUpdateLinkEmail({ recipientName: EVIL, storeName: EVIL, link: LINK, expiresAt: expires }),
  ],
  [
    'contract signing link',
    contractSigningLinkEmail({
      recipientName: EVIL,
      storeName: EVIL,
      orderReference: EVIL,
      link: LINK,
      expiresAt: expires,
    }),
  ],
  ['distributor password reset', distributorPasswordResetEmail({ name: EVIL, link: LINK, ttlMinutes: 60 })],
  [
    'feature-change confirmation',
    featureChangeConfirmationEmail({
      recipientName: EVIL,
      storeName: EVIL,
      changes: [{ feature: EVIL, action: 'add' }],
      reference: EVIL,
    }),
  ],
];

describe('e-mail templates', () => {
  it.each(rendered)('%s: every value is escaped in the HTML and kept as is in the text', (_name, mail) => {
    expect(mail.html).not.toContain('<script>');
    expect(mail.html).toContain(escapeHtml('<script>alert("x")</script>'));
    expect(mail.text).toContain('<script>alert("x")</script>');
    expect(mail.subject).not.toMatch(/[\r\n]/);
    expect(mail.template).toMatch(/^[a-z_]+$/);
  });

  it.each(rendered.filter(([name]) => name !== 'feature-change confirmation'))(
    '%s: carries its link (escaped in the href, whole in the text and links)',
    (_name, mail) => {
      expect(mail.links).toEqual([LINK]);
      expect(mail.text).toContain(LINK);
      expect(mail.html).toContain(`href="${escapeHtml(LINK)}"`);
    },
  );

  it('payment update: says until when the link works', () => {
    const mail = paymentUpdateLinkEmail({
      recipientName: 'Ana',
      storeName: 'Corner Deli',
      link: LINK,
      expiresAt: expires,
    });
    expect(mail).toMatchObject({
      template: 'payment_update_link',
      subject: 'Update the payment method for Corner Deli',
    });
    expect(mail.text).toContain('Nov 29, 2026');
  });

  it('distributor reset keeps its template name and one-hour wording', () => {
    const mail = distributorPasswordResetEmail({ name: 'Dee', link: LINK, ttlMinutes: 60 });
    expect(mail.template).toBe('distributor_password_reset');
    expect(mail.subject).toBe('Reset your POS Back Office password');
    expect(mail.text).toContain('within 60 minutes');
  });

  it('feature change lists each change with its verb and the effective date', () => {
    const mail = featureChangeConfirmationEmail({
      recipientName: 'Ana',
      storeName: 'Corner Deli',
      changes: [
        { feature: 'eWIC', action: 'add' },
        { feature: 'No Ads', action: 'remove' },
      ],
      effectiveOn: '2026-12-01',
    });
    expect(mail.text).toContain('- Added: eWIC\n- Removed: No Ads');
    expect(mail.text).toContain('from Dec 1, 2026');
    expect(mail.links).toEqual([]);
  });
});
