import { describe, expect, it } from 'vitest';
import {
  canChangeFeature,
  canReverseInvoice,
  cardBrandOf,
  customerBillingItemListQuery,
  gatewayTokenRequest,
  isCardExpired,
  isLuhnValid,
  isValidAbaRoutingNumber,
  LIMITED_FEATURES,
  paymentInstrumentCreateRequest,
  paymentPlanCreateRequest,
  terminalListQuery,
  terminalUpdateRequest,
  transactionActionsFor,
} from './customer-accounts';
import { NRS_PAY_SOFTWARE_FEATURES } from '../codes/billing';
import { fieldsFromZodError } from './common';

const fields = (r: { success: boolean; error?: unknown }) =>
  r.success ? {} : fieldsFromZodError(r.error as Parameters<typeof fieldsFromZodError>[0]);

describe('customer-accounts contracts', () => {
  it('terminal list: exactly one query kind', () => {
    expect(terminalListQuery.safeParse({ storeid: '500001' }).success).toBe(true);
    expect(fields(terminalListQuery.safeParse({}))).toEqual({
      _: 'Filter by exactly one of: custorderid, customerplanid, storeid, elmer_id.',
    });
    expect(fields(terminalListQuery.safeParse({ storeid: '1', elmer_id: '12345678' }))).toEqual({
      elmer_id: 'Filter by one of custorderid, customerplanid, storeid, elmer_id at a time (got storeid and elmer_id).',
    });
  });

  it('terminal update: one of two shapes', () => {
    expect(terminalUpdateRequest.safeParse({ elmer_id: '1', under_transfer: true, version: 1 }).success).toBe(true);
    expect(
      terminalUpdateRequest.parse({ pos_cc_processor_serial_number: 'pax-1', version: 1 })
        .pos_cc_processor_serial_number,
    ).toBe('PAX-1');
    expect(fields(terminalUpdateRequest.safeParse({ under_transfer: true, version: 1 }))).toEqual({
      elmer_id: 'Send the terminal id (elmer_id) with under_transfer.',
    });
    expect(
      terminalUpdateRequest.safeParse({
        elmer_id: '1',
        under_transfer: true,
        pos_cc_processor_serial_number: 'ABC',
        version: 1,
      }).success,
    ).toBe(false);
  });

  it('billing item query: the 999999999 default and checkForPreviousRecords booleans', () => {
    expect(customerBillingItemListQuery.parse({})).toMatchObject({
      custstoreid: 999_999_999,
      checkForPreviousRecords: false,
      limit: 50,
      offset: 0,
    });
    expect(customerBillingItemListQuery.parse({ checkForPreviousRecords: 'Y' }).checkForPreviousRecords).toBe(true);
    expect(customerBillingItemListQuery.parse({ checkForPreviousRecords: 'false' }).checkForPreviousRecords).toBe(
      false,
    );
  });

  it('plan create: zeros for credit memo / due amount, a store for the others', () => {
    expect(paymentPlanCreateRequest.safeParse({ kind: 'due_amount', starts_on: '2026-01-01' }).success).toBe(true);
    expect(
      fields(paymentPlanCreateRequest.safeParse({ kind: 'credit_memo', term: 12, starts_on: '2026-01-01' })),
    ).toEqual({ term: 'A credit memo plan has zero term.' });
    expect(fields(paymentPlanCreateRequest.safeParse({ kind: 'monthly', starts_on: '2026-01-01' }))).toEqual({
      store_id: 'Choose the store this plan is for.',
    });
  });

  it('limited features are NRS Pay software features; canChangeFeature', () => {
    for (const f of LIMITED_FEATURES) expect(NRS_PAY_SOFTWARE_FEATURES).toContain(f);
    expect(canChangeFeature(['customer_features_limited'], 'Item Modifiers')).toBe(true);
    expect(canChangeFeature(['customer_features_limited'], 'eWIC')).toBe(false);
    expect(canChangeFeature(['customer_features_edit'], 'eWIC')).toBe(true);
    expect(canChangeFeature([], 'No Ads')).toBe(false);
  });

  it('transaction actions and invoice reversal by status', () => {
    expect(transactionActionsFor('F')).toEqual(['retry']);
    expect(transactionActionsFor('P')).toEqual(['void']);
    expect(transactionActionsFor('S')).toEqual([]);
    expect([canReverseInvoice('N'), canReverseInvoice('P'), canReverseInvoice('R')]).toEqual([true, true, false]);
  });

  it('card rules: Luhn, brand, expiry; ABA routing numbers', () => {
    expect(isLuhnValid('4242424242424242')).toBe(true);
    expect(isLuhnValid('4242424242424241')).toBe(false);
    expect(isLuhnValid('4242')).toBe(false);
    expect(
      [
        '4111111111111111',
        '5555555555554444',
        '2223003122003222',
        '378282246310005',
        '6011111111111117',
        '3530111333300000',
      ].map(cardBrandOf),
    ).toEqual(['visa', 'mastercard', 'mastercard', 'amex', 'discover', 'unknown']);
    const nov2026 = new Date('2026-11-22T00:00:00Z');
    expect([
      isCardExpired(11, 2026, nov2026),
      isCardExpired(10, 2026, nov2026),
      isCardExpired(1, 2027, nov2026),
    ]).toEqual([false, true, false]);
    expect(isValidAbaRoutingNumber('021000021')).toBe(true);
    expect(isValidAbaRoutingNumber('021000022')).toBe(false);
    expect(
      gatewayTokenRequest.parse({ number: '4242 4242-4242 4242', exp_month: '12', exp_year: '2030', cvc: '123' })
        .number,
    ).toBe('4242424242424242');
  });

  it('payment instrument: card token or bank account; a Canadian account has transit + institution numbers', () => {
    expect(
      paymentInstrumentCreateRequest.parse({ kind: 'card', card_token: 'tok_local_abcdef', name_on_account: 'A' }),
    ).toMatchObject({ make_default: true });
    const ca = paymentInstrumentCreateRequest.safeParse({
      kind: 'bank',
      name_on_account: 'A',
      routing_number: '123',
      institution_number: '003',
      account_number: '1234567',
      account_type: 'checking',
      bank_name: 'RBC',
    });
    expect(fields(ca)).toEqual({ routing_number: 'A Canadian transit number has 5 digits.' });
    expect(fields(paymentInstrumentCreateRequest.safeParse({ kind: 'iou' }))).toHaveProperty('kind');
  });
});
