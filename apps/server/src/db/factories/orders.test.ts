import { blankOrder, orderDraft } from '@pos/domain';
import { describe, expect, it } from 'vitest';
import { buildOrderDocument } from './orders';

/* The factory's §3 order document starts from the domain's blank template (decision 081). */

const keysOf = (v: unknown) => Object.keys(v as object).sort();
const ORDER_DATE = new Date('2026-11-02T15:00:00Z');

describe('buildOrderDocument', () => {
  it('without a customer is the blank template with ids, date and the factory defaults, and passes orderDraft', () => {
    const doc = buildOrderDocument({ orderInfoId: 700001, unifiedOrderId: 'UO-1', orderDate: ORDER_DATE });
    const blank = blankOrder();
    expect(orderDraft.safeParse(doc).error).toBeUndefined();
    expect(keysOf(doc)).toEqual(keysOf(blank));
    for (const section of [
      'CustomerInfo',
      'StoreInfo',
      'HomeAddress',
      'PaymentInfo',
      'UserInfo',
      'additionalInfo',
    ] as const) {
      expect(doc[section], section).toEqual(blank[section]);
    }
    expect(doc).toMatchObject({
      orderInfoId: 700001,
      unifiedOrderId: 'UO-1',
      orderDate: ORDER_DATE.toISOString(),
      preferredTrainingLanguage: 'English',
    });
    expect((doc.PaymentPlanInfo as object[]).map(keysOf)).toEqual(blank.PaymentPlanInfo!.map(keysOf));
    expect((doc.PaymentInstrumentInfo as object[]).map(keysOf)).toEqual(blank.PaymentInstrumentInfo!.map(keysOf));
  });

  it('fills customer, store, plans and lists; still passes orderDraft; the same input gives the same document', () => {
    const home = { address1: '1 Main St', address2: null, city: 'Toronto', state: 'ON', zip: 'M5V 2T6', country: 'CA' };
    const input = {
      orderInfoId: 700002,
      unifiedOrderId: 'UO-2',
      orderDate: ORDER_DATE,
      customer: {
        id: 42,
        firstName: 'Pat',
        lastName: 'Lee',
        email: 'pat@example.org',
        phone: '4165550100',
        country: 'CA',
        homeAddress: home,
        paymentProcessorReference: 'cus_9',
      },
      store: { id: 7, doingBusinessAs: 'Pat’s Deli', storeName: 'Deli', storeAddress: home },
      noOfTerminals: 3,
      totalSaleCents: 123_456,
      hardwarePlan: { paymentPlanId: 11, initialPaymentCents: 10_000, recurringCents: 2_500, term: 12, interval: 1 },
      user: { name: 'sam', email: 'sam@example.com' },
    };
    const doc = buildOrderDocument(input);
    expect(orderDraft.safeParse(doc).error).toBeUndefined();
    expect(doc).toMatchObject({
      billingCustomerId: 42,
      noOfTerminals: 3,
      totalSalePrice: '1234.56',
      CustomerInfo: {
        firstName: 'Pat',
        lastName: 'Lee',
        email: 'pat@example.org',
        phone: '4165550100',
        customerCategory: blankOrder().CustomerInfo!.customerCategory,
      },
      HomeAddress: home,
      BillingAddress: { country: 'CA', address1: '' },
      StoreInfo: { doingBusinessAs: 'Pat’s Deli', customerStoreId: 7, StoreAddress: home, DbaAddress: home },
      PaymentPlanInfo: [
        { paymentPlanId: 11, initialPaymentAmount: '100.00', recurringAmount: '25.00', term: 12, showTermsFlag: true },
        { term: 1, interval: 1 },
      ],
      PaymentInstrumentInfo: [
        { nameOnAccount: 'Pat Lee', paymentProcessorReference: 'cus_9', noofPOS: 3 },
        { nameOnAccount: 'Pat Lee' },
      ],
      UserInfo: { name: 'sam', email: 'sam@example.com' },
      additionalInfo: { customerID: 42, billingCustomerID: 42 },
    });
    expect(buildOrderDocument(input)).toEqual(doc);
  });
});
