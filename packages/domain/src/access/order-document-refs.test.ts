import { describe, expect, it } from 'vitest';
import { blankOrder } from '../contracts/orders';
import { documentCustomerId, documentIdOf, orderDocumentReferences } from './order-document-refs';

describe('the records an order document names (decision 142)', () => {
  it('reads ids as onboarding does: a positive whole number, else nothing', () => {
    expect([12, '12', ' 12 ', '0x1F'].map(documentIdOf)).toEqual([12, 12, 12, 31]);
    expect([null, undefined, '', '  ', 0, -4, 1.5, 'abc', true].map(documentIdOf)).toEqual(
      Array.from({ length: 9 }, () => null),
    );
  });

  it('a blank template names nothing', () => {
    expect(orderDocumentReferences(blankOrder())).toEqual([]);
    expect(documentCustomerId(blankOrder())).toBeNull();
  });

  it('lists customer, billing customers, store, cards and sealed bank accounts with their request paths', () => {
    const doc = blankOrder();
    doc.billingCustomerId = '7';
    doc.additionalInfo = { ...doc.additionalInfo, customerID: 5, billingCustomerID: 6 };
    doc.StoreInfo = { ...doc.StoreInfo, customerStoreId: 9 };
    doc.PaymentInstrumentInfo = [
      { ...doc.PaymentInstrumentInfo![0], paymentProcessorReference: ' pm_1 ' },
      { ...doc.PaymentInstrumentInfo![1], achAccountNumberEncrypted: 'v1:abc' },
    ];
    expect(orderDocumentReferences(doc)).toEqual([
      { kind: 'customer', path: 'json.additionalInfo.customerID', id: 5 },
      { kind: 'customer', path: 'json.additionalInfo.billingCustomerID', id: 6 },
      { kind: 'customer', path: 'json.billingCustomerId', id: 7 },
      { kind: 'store', path: 'json.StoreInfo.customerStoreId', id: 9 },
      { kind: 'card', path: 'json.PaymentInstrumentInfo.0.paymentProcessorReference', reference: 'pm_1' },
      { kind: 'bank_account', path: 'json.PaymentInstrumentInfo.1.achAccountNumberEncrypted', sealed: 'v1:abc' },
    ]);
    expect(documentCustomerId(doc)).toBe(5);
  });

  it('plan and payment-method type ids are catalogue codes, not references', () => {
    const doc = blankOrder();
    doc.PaymentPlanInfo = doc.PaymentPlanInfo!.map((p) => ({ ...p, paymentPlanId: 123456 }));
    doc.PaymentInstrumentInfo = doc.PaymentInstrumentInfo!.map((m) => ({
      ...m,
      paymentPlanId: 5,
      paymentMethodTypeId: 1,
    }));
    expect(orderDocumentReferences(doc)).toEqual([]);
  });
});
