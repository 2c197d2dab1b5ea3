// @pos/domain — codes, access rules, pure business rules and shared API contracts.
export * from './util/assert-never';
export * from './limits';

export * from './codes/order-status';
export * from './codes/order';
export * from './codes/transactions';
export * from './codes/invoices';
export * from './codes/countries';
export * from './codes/states';
export * from './codes/currencies';
export * from './codes/sales';
export * from './codes/billing';
export * from './codes/payment-methods';
export * from './codes/spinner';
export * from './codes/mail-templates';

export * from './access/permissions';
export * from './access/routes';
export * from './access/roles';
export * from './access/navigation';
export * from './access/order-scope';

export * from './rules/store-filter';
export * from './rules/customer-search';
export * from './rules/zip';
export * from './rules/upload';
export * from './rules/email';
export * from './rules/percent';
export * from './rules/login-redirect';
export * from './rules/milestones';
export * from './rules/money';
export * from './rules/mid';
export * from './rules/order-transitions';
export * from './rules/order-totals';
export * from './rules/payment-method-text';
export * from './rules/ledger';

export * from './contracts/common';
export * from './contracts/auth';
export * from './contracts/sign-in';
export * from './contracts/admin';
export * from './contracts/uploads';
export * from './contracts/banks';
export * from './contracts/catalogue';
export * from './contracts/jobs';
export * from './contracts/customers';
export * from './contracts/customer-accounts';
export * from './contracts/order-status';
export * from './contracts/orders';
export * from './contracts/order-contracts';
export * from './contracts/onboarding';
export * from './contracts/order-search';
export * from './contracts/agents';
export * from './contracts/payment-authorizations';
export * from './contracts/search';
export * from './contracts/ledger';
export * from './rules/password';
