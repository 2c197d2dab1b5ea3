import { describe, expect, it } from 'vitest';
import { fieldsFromZodError } from './common';
import {
  blankOrder,
  isStorableCardReference,
  orderDraft,
  orderForSubmit,
  orderInfoQuery,
  orderInfoSaveParams,
  type OrderDocument,
} from './orders';

const address = {
  address1: '12 Elm St',
  address2: '',
  city: 'Springfield',
  state: 'IL',
  zip: '62701',
  country: 'US' as const,
};

/** A blank order filled with everything a POS submit needs. */
function completeOrder(): OrderDocument {
  const o = blankOrder();
  o.CustomerInfo = {
    ...o.CustomerInfo,
    firstName: 'Ada',
    lastName: 'Lovelace',
    email: 'ada@example.com',
    phone: '2175550100',
    federalTaxId: '41-7000001',
  };
  o.HomeAddress = { ...address };
  o.BillingAddress = { ...address };
  o.ShippingAddress = { ...address };
  o.StoreInfo = {
    ...o.StoreInfo,
    doingBusinessAs: 'Ada Mart',
    storeName: 'Ada Mart - Elm',
    phone: '2175550101',
    StoreAddress: { ...address },
  };
  o.totalSalePrice = '1499.00';
  o.PaymentPlanInfo = o.PaymentPlanInfo!.map((p, i) => ({ ...p, paymentPlanId: 10 + i }));
  o.PaymentInstrumentInfo = o.PaymentInstrumentInfo!.map((p) => ({
    ...p,
    paymentMethodTypeId: 1,
    creditCardNumber: '4242',
  }));
  return o;
}

const issues = (schema: typeof orderDraft, doc: unknown) => {
  const r = schema.safeParse(doc);
  return r.success ? {} : fieldsFromZodError(r.error);
};

describe('blankOrder', () => {
  it('has every §3 section with the spec defaults', () => {
    const o = blankOrder();
    expect(o).toMatchObject({ mobileConsent: 'N', noOfTerminals: 1, orderType: 'P' });
    expect(o.CustomerInfo).toMatchObject({ customerCategory: 'DISTRIBUTOR', customerClass: 'POS' });
    expect(o.StoreInfo).toMatchObject({
      inventoryDatabaseExists: 'No',
      acceptsCreditCards: 'No',
      dbaAddressSameAsLegal: true,
      dbaSameAsLegal: false,
    });
    expect(o.PaymentPlanInfo!.map((p) => p.type)).toEqual(['hardware sale plan', 'monthly plan']);
    expect(o.PaymentInstrumentInfo!.map((p) => p.type)).toEqual(['hardware sale plan', 'monthly plan']);
    expect(o.PaymentPlanInfo![0]).toHaveProperty('planName');
    expect(o.PaymentPlanInfo![1]).not.toHaveProperty('planName');
    expect(o.PaymentInstrumentInfo![0]).toHaveProperty('noofPOS', 1);
    for (const k of [
      'HomeAddress',
      'BillingAddress',
      'ShippingAddress',
      'PromotionInfo',
      'BillingItemInfo',
      'NoteInfo',
      'BundleInfo',
      'additionalDiscount',
      'SaleRepChecklist',
      'PaymentInfo',
      'UserInfo',
      'additionalInfo',
    ]) {
      expect(o).toHaveProperty(k);
    }
    expect(Object.keys(o.StoreInfo!.GeocodedAddress!)).toContain('lattitude');
    expect(blankOrder()).not.toBe(blankOrder());
  });
  it('is a valid draft but not a valid submit', () => {
    expect(orderDraft.safeParse(blankOrder()).success).toBe(true);
    const fields = issues(orderForSubmit, blankOrder());
    expect(fields).toHaveProperty(['CustomerInfo.email']);
    expect(fields).toHaveProperty(['CustomerInfo.federalTaxId']);
    expect(fields).toHaveProperty(['StoreInfo.StoreAddress.address1']);
    expect(fields).toHaveProperty(['PaymentPlanInfo.1.paymentPlanId']);
  });
});

describe('orderDraft', () => {
  it('accepts an empty object and keeps unknown keys', () => {
    expect(orderDraft.parse({})).toEqual({});
    expect(orderDraft.parse({ futureField: 1 })).toEqual({ futureField: 1 });
  });
  it('refuses malformed present values at their paths', () => {
    const o = blankOrder();
    o.CustomerInfo!.email = 'not-an-email';
    o.HomeAddress = { ...address, zip: '1234' };
    o.BillingAddress = { ...address, state: 'ZZ' };
    o.ShippingAddress = { ...address, country: 'CA', zip: '62701', state: 'ON' };
    o.totalSalePrice = '12.345';
    o.additionalDiscount = { type: 'percent', value: 101 };
    const fields = issues(orderDraft, o);
    expect(Object.keys(fields).sort()).toEqual(
      [
        'BillingAddress.state',
        'CustomerInfo.email',
        'HomeAddress.zip',
        'ShippingAddress.zip',
        'additionalDiscount.value',
        'totalSalePrice',
      ].sort(),
    );
  });
  it('accepts a Canadian postal code and province, percent at the bounds, and decimal money', () => {
    const o = blankOrder();
    o.HomeAddress = { address1: '1 Rue', city: 'Ottawa', state: 'ON', zip: 'K1A 0B1', country: 'CA' };
    o.totalSalePrice = '0.5';
    expect(orderDraft.safeParse(o).success).toBe(true);
    expect(orderDraft.safeParse({ additionalDiscount: { type: 'percent', value: 0 } }).success).toBe(true);
    expect(orderDraft.safeParse({ additionalDiscount: { type: 'percent', value: 100 } }).success).toBe(true);
    expect(orderDraft.safeParse({ additionalDiscount: { type: 'percent', value: -1 } }).success).toBe(false);
    expect(orderDraft.safeParse({ totalSalePrice: 1499 }).success).toBe(false);
    expect(orderDraft.safeParse({ totalSalePrice: '-1.00' }).success).toBe(false);
  });
  it('refuses a full card number but takes last 4, a masked number or a gateway token', () => {
    for (const pan of ['4242424242424242', '4242 4242 4242 4242', '4242-4242-4242-4242', '378282246310005']) {
      expect(isStorableCardReference(pan), pan).toBe(false);
      const o = blankOrder();
      o.PaymentInstrumentInfo![1]!.creditCardNumber = pan;
      expect(issues(orderDraft, o)).toHaveProperty(['PaymentInstrumentInfo.1.creditCardNumber']);
    }
    for (const ok of [null, '', '4242', '************4242', 'tok_1N3abcDEF', 'pm_9xYzAbC123']) {
      expect(isStorableCardReference(ok), String(ok)).toBe(true);
    }
  });
  it('refuses two entries of the same plan type', () => {
    const o = blankOrder();
    o.PaymentPlanInfo = [o.PaymentPlanInfo![1]!, o.PaymentPlanInfo![1]!];
    expect(issues(orderDraft, o)).toHaveProperty(['PaymentPlanInfo.1.type']);
  });
});

describe('orderForSubmit', () => {
  it('accepts a complete POS order', () => {
    const r = orderForSubmit.safeParse(completeOrder());
    expect(r.success, JSON.stringify(r.error?.issues)).toBe(true);
  });
  it('needs at least one terminal for POS, none for non-POS', () => {
    const o = completeOrder();
    o.noOfTerminals = 0;
    expect(issues(orderForSubmit, o)).toHaveProperty(['noOfTerminals']);
    o.orderType = 'N';
    o.PaymentPlanInfo![0]!.paymentPlanId = null;
    expect(orderForSubmit.safeParse(o).success).toBe(true);
  });
  it('needs the DBA address only when it differs from the legal one', () => {
    const o = completeOrder();
    o.StoreInfo!.DbaAddress = { address1: '', city: '', state: '', zip: '', country: 'US' };
    expect(orderForSubmit.safeParse(o).success).toBe(true);
    o.StoreInfo!.dbaAddressSameAsLegal = false;
    expect(issues(orderForSubmit, o)).toHaveProperty(['StoreInfo.DbaAddress.address1']);
  });
  it('reports each missing required field at its path', () => {
    const o = completeOrder();
    o.CustomerInfo!.email = ' ';
    o.CustomerInfo!.phone = null;
    o.PaymentInstrumentInfo = [o.PaymentInstrumentInfo![0]!];
    expect(Object.keys(issues(orderForSubmit, o)).sort()).toEqual(
      ['CustomerInfo.email', 'CustomerInfo.phone', 'PaymentInstrumentInfo'].sort(),
    );
  });
});

describe('call contracts', () => {
  it('orderInfoQuery takes id or unifiedid, not both', () => {
    expect(orderInfoQuery.safeParse({ id: '5' }).success).toBe(true);
    expect(orderInfoQuery.safeParse({ unifiedid: 'UO-1' }).success).toBe(true);
    expect(orderInfoQuery.safeParse({}).success).toBe(true);
    expect(orderInfoQuery.safeParse({ id: '5', unifiedid: 'UO-1' }).success).toBe(false);
    expect(orderInfoQuery.safeParse({ id: 'abc' }).success).toBe(false);
  });
  it('orderInfoSaveParams takes new or a positive id', () => {
    expect(orderInfoSaveParams.parse({ orderInfoId: 'new', token: 't' }).orderInfoId).toBe('new');
    expect(orderInfoSaveParams.parse({ orderInfoId: '12', token: 't' }).orderInfoId).toBe(12);
    expect(orderInfoSaveParams.safeParse({ orderInfoId: '0', token: 't' }).success).toBe(false);
  });
});
