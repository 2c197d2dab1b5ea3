/** The e-mails the product sends (server templates in apps/server/src/integrations/mail/templates), with the names people read. */
export const MAIL_TEMPLATE = {
  PAYMENT_UPDATE_LINK: 'payment_update_link',
  CONTRACT_SIGNING_LINK: 'contract_signing_link',
  CONTRACT_REAUTHORIZE_LINK: 'contract_reauthorize_link',
  DISTRIBUTOR_PASSWORD_RESET: 'distributor_password_reset',
  FEATURE_CHANGE_CONFIRMATION: 'feature_change_confirmation',
  FEATURE_CHANGE_OFFER: 'feature_change_offer',
  INVOICE: 'invoice',
  PAYMENT_FAILED: 'payment_failed',
} as const;
export type MailTemplateName = (typeof MAIL_TEMPLATE)[keyof typeof MAIL_TEMPLATE];

export const MAIL_TEMPLATE_LABELS: Readonly<Record<MailTemplateName, string>> = {
  payment_update_link: 'Payment-method update link',
  contract_signing_link: 'Contract signing link',
  contract_reauthorize_link: 'Payment re-authorization link',
  distributor_password_reset: 'Distributor password reset',
  feature_change_confirmation: 'Feature-change confirmation',
  feature_change_offer: 'Feature change to accept (link)',
  invoice: 'Invoice (PDF attached)',
  payment_failed: 'Payment failed (pay link)',
};

/** The label of a template name (the name itself for one this version does not know). */
export function mailTemplateLabel(name: string): string {
  return (MAIL_TEMPLATE_LABELS as Record<string, string>)[name] ?? name;
}
