import { blankOrder, type OrderDocument } from '@pos/domain';

/** A US merchant's address the order tests use everywhere. */
export const TEST_ADDRESS = {
  address1: '12 Elm St',
  address2: '',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  country: 'US' as const,
};

/** An order document that passes the submit rules (customer, addresses, store, plans, a card token). */
export function completeOrder(): OrderDocument {
  const o = blankOrder();
  o.CustomerInfo = {
    ...o.CustomerInfo,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '2175550100',
    federalTaxId: '41-7100001',
    legalName: 'Ada Holdings LLC',
  };
  o.HomeAddress = { ...TEST_ADDRESS };
  o.BillingAddress = { ...TEST_ADDRESS };
  o.ShippingAddress = { ...TEST_ADDRESS };
  o.StoreInfo = {
    ...o.StoreInfo,
    doingBusinessAs: 'Ada Mart',
    storeName: 'Ada Mart - Elm',
    phone: '2175550101',
    StoreAddress: { ...TEST_ADDRESS },
  };
  o.salesRep = 'Dana Whitfield';
  o.totalSalePrice = '1499.50';
  o.PaymentPlanInfo = o.PaymentPlanInfo!.map((p, i) => ({ ...p, paymentPlanId: 10 + i }));
  o.PaymentInstrumentInfo = o.PaymentInstrumentInfo!.map((p) => ({
    ...p,
    paymentMethodTypeId: 1,
    creditCardNumber: 'tok_abc123XYZ',
  }));
  return o;
}

type Address =
  | typeof TEST_ADDRESS
  | { address1: string; address2: string; city: string; state: string; zip: string; country: 'US' | 'CA' };

/**
 * A new merchant's POS order as onboarding takes it at Complete: the owner, one address everywhere, the store, the
 * one-time hardware plan and the $79.00 monthly plan, a Visa card (…4242) with its processor reference. Callers add
 * the lines (BillingItemInfo, BundleInfo…) they test.
 */
export function newMerchantOrder(m: {
  firstName: string;
  lastName: string;
  email: string;
  federalTaxId: string;
  doingBusinessAs: string;
  address: Address;
  terminals: number;
  processorReference: string;
}): OrderDocument {
  const o = blankOrder();
  o.CustomerInfo = {
    ...o.CustomerInfo,
    firstName: m.firstName,
    lastName: m.lastName,
    email: m.email,
    phone: '5125550100',
    federalTaxId: m.federalTaxId,
  };
  o.HomeAddress = { ...m.address };
  o.BillingAddress = { ...m.address };
  o.ShippingAddress = { ...m.address };
  o.StoreInfo = {
    ...o.StoreInfo,
    doingBusinessAs: m.doingBusinessAs,
    storeName: `${m.doingBusinessAs} Oak`,
    phone: '5125550101',
    StoreAddress: { ...m.address },
  };
  o.noOfTerminals = m.terminals;
  o.PaymentPlanInfo = o.PaymentPlanInfo!.map((p, i) => ({
    ...p,
    paymentPlanId: i === 0 ? 1 : 4,
    recurringAmount: i === 0 ? '0.00' : '79.00',
  }));
  o.PaymentInstrumentInfo = o.PaymentInstrumentInfo!.map((p) => ({
    ...p,
    paymentMethodTypeId: 1,
    creditCardNumber: '4242',
    issuer: 'visa',
    expirationDate: '12/2030',
    paymentProcessorReference: m.processorReference,
  }));
  return o;
}

let serialSeq = 0;
/** Serial numbers for `n` terminals, unique across the test run (decision 150: entered at Installation). */
export function terminalSerials(n: number): string[] {
  serialSeq += 1;
  const run = `${process.pid}-${serialSeq}`;
  return Array.from({ length: n }, (_, i) => `SN-T${run}-${i + 1}`);
}
