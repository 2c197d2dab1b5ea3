import { describe, expect, it } from 'vitest';
import { fieldsFromZodError } from './common';
import { cashCheckFeeApplies, receiptApply, receiptCreate, receiptDateProblem, receiptDateWindow } from './receipts';
import { UPLOAD_ID_MESSAGE, uploadFileParams } from './uploads';

describe('receipts contracts (decision 119)', () => {
  it('the cash/check fee applies to a US customer paying USD by cash or check, nowhere else', () => {
    expect(cashCheckFeeApplies({ method: 'cash', currency: 'USD', country: 'US' })).toBe(true);
    expect(cashCheckFeeApplies({ method: 'check', currency: 'USD', country: 'US' })).toBe(true);
    expect(cashCheckFeeApplies({ method: 'wire', currency: 'USD', country: 'US' })).toBe(false);
    expect(cashCheckFeeApplies({ method: 'check', currency: 'CAD', country: 'CA' })).toBe(false);
    expect(cashCheckFeeApplies({ method: 'check', currency: 'USD', country: null })).toBe(false);
  });

  it('a receipt is dated from 2 years before the billing day to the billing day itself (RECEIPT_MAX_AGE_YEARS)', () => {
    expect(receiptDateWindow('2026-11-22')).toEqual({ earliest: '2024-11-22', latest: '2026-11-22' });
    expect(receiptDateWindow('2028-02-29').earliest).toBe('2026-02-28');
    expect(receiptDateProblem('2026-11-22', '2026-11-22')).toBeNull();
    expect(receiptDateProblem('2024-11-22', '2026-11-22')).toBeNull();
    expect(receiptDateProblem('2026-11-23', '2026-11-22')).toBe('The day received cannot be in the future.');
    for (const old of ['2024-11-21', '0001-01-01'])
      expect(receiptDateProblem(old, '2026-11-22')).toBe(
        'The day received cannot be more than 2 years ago (the earliest is 2024-11-22).',
      );
  });

  it('a check needs its number, only a check has an image, the fee only on cash or checks', () => {
    const r = receiptCreate.safeParse({
      customer_id: 1,
      method: 'wire',
      amount_cents: 100,
      currency: 'USD',
      received_on: '2026-11-20',
      upload_id: 'Zk9vQmFyQmF6UXV4LVF1dXhfQ29yZ2Ux',
      charge_fee: true,
    });
    expect(r.success).toBe(false);
    expect(fieldsFromZodError(r.error!)).toEqual({
      reference: 'Enter the bank reference of the transfer.',
      upload_id: 'Only a check has a check image.',
      charge_fee: 'The cash/check fee applies to cash and checks.',
    });
    const check = receiptCreate.safeParse({
      customer_id: 1,
      method: 'check',
      amount_cents: 100,
      currency: 'USD',
      received_on: '2026-11-20',
      reference: '  ',
    });
    expect(fieldsFromZodError(check.error!)).toEqual({ reference: 'Enter the check number.' });
  });

  it('an application names each invoice once and at least one', () => {
    const twice = receiptApply.safeParse({
      version: 0,
      applications: [
        { invoice_id: 5, amount_cents: 100 },
        { invoice_id: 5, amount_cents: 200 },
      ],
    });
    expect(fieldsFromZodError(twice.error!)).toEqual({ 'applications.1.invoice_id': 'Invoice 5 is named twice.' });
    const none = receiptApply.safeParse({ version: 0, applications: [] });
    expect(fieldsFromZodError(none.error!)).toEqual({ applications: 'Enter an amount for at least one invoice.' });
  });

  it("an upload is named by its public id (32 base64url characters), never by the table's sequential key", () => {
    const base = { customer_id: 1, method: 'check', amount_cents: 100, currency: 'USD', received_on: '2026-11-20' };
    for (const bad of [3, '3', 'A'.repeat(31), 'A'.repeat(33), `${'A'.repeat(31)}=`, `${'A'.repeat(31)}/`]) {
      const r = receiptCreate.safeParse({ ...base, reference: '1', upload_id: bad });
      expect(fieldsFromZodError(r.error!)).toEqual({ upload_id: UPLOAD_ID_MESSAGE });
      expect(uploadFileParams.safeParse({ id: bad, token: 't' }).success).toBe(false);
    }
    const good = 'Zk9vQmFyQmF6UXV4LVF1dXhfQ29yZ2Ux';
    expect(receiptCreate.parse({ ...base, reference: '1', upload_id: good }).upload_id).toBe(good);
    expect(uploadFileParams.parse({ id: good, token: 't' }).id).toBe(good);
  });
});
