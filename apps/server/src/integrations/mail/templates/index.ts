/** E-mail templates: each returns {template, subject, html, text, links}; every value in the HTML is escaped. */
export * from './html';
export * from './payment-update-link';
export * from './contract-signing-link';
export * from './distributor-password-reset';
export * from './feature-change-confirmation';
export * from './feature-change-offer';
export * from './contract-reauthorize-link';
export * from './invoice';
export * from './payment-failed';
