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

let serialSeq = 0;
/** Serial numbers for `n` terminals, unique across the test run (decision 150: entered at Installation). */
export function terminalSerials(n: number): string[] {
  serialSeq += 1;
  const run = `${process.pid}-${serialSeq}`;
  return Array.from({ length: n }, (_, i) => `SN-T${run}-${i + 1}`);
}
