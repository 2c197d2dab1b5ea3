import { describe, expect, it } from 'vitest';
import {
  cardBrandLabel,
  describeBankAccount,
  describeCard,
  describeOrderPaymentMethod,
  describePaymentMethod,
  lastFour,
} from './payment-method-text';

describe('payment method wording', () => {
  it('never more than the last four digits', () => {
    expect(lastFour('4242424242424242')).toBe('4242');
    expect(lastFour('************4242')).toBe('4242');
    expect(lastFour('****6789')).toBe('6789');
    expect(lastFour('4242 4242 4242 4242')).toBe('4242');
    expect(lastFour('pm_9xYzAbC123')).toBe('');
    expect(lastFour(null)).toBe('');
  });

  it('cards: the brand as people write it, then the last four', () => {
    expect(describeCard('visa', '4242')).toBe('Visa ending 4242');
    expect(describeCard('mastercard', '5555555555554444')).toBe('Mastercard ending 4444');
    expect(describeCard('Royal Credit', '1111')).toBe('Royal Credit ending 1111');
    expect(describeCard(null, '0002')).toBe('Card ending 0002');
    expect(cardBrandLabel('unknown')).toBe('Card');
  });

  it('bank accounts: the bank, else "Bank", and the masked last four', () => {
    expect(describeBankAccount('Chase', '6789')).toBe('Chase ending 6789');
    expect(describeBankAccount(null, '****6789')).toBe('Bank account ending 6789');
    expect(describeBankAccount('  ', '000123456789')).toBe('Bank account ending 6789');
  });

  it('a payment instrument on file', () => {
    expect(describePaymentMethod({ kind: 'card', card: { brand: 'visa', last4: '4242' } })).toBe('Visa ending 4242');
    expect(describePaymentMethod({ kind: 'bank', bank: { bank_name: 'First Test Bank', account_last4: '6789' } })).toBe(
      'First Test Bank ending 6789',
    );
    expect(describePaymentMethod({ kind: 'cash' })).toBe('Cash');
  });

  it("an order document's method entry", () => {
    expect(describeOrderPaymentMethod({ paymentMethodTypeId: 1, issuer: 'visa', creditCardNumber: '4242' })).toBe(
      'Visa ending 4242',
    );
    expect(
      describeOrderPaymentMethod({ paymentMethodTypeId: '2', achBankName: 'First Bank', achAccountNumber: '****6789' }),
    ).toBe('First Bank ending 6789');
    expect(describeOrderPaymentMethod({ paymentMethodTypeId: 3 })).toBe('Cash');
    // Chosen, but the number is not known yet: the entry's own description, else nothing.
    expect(describeOrderPaymentMethod({ paymentMethodTypeId: 1, paymentDescription: 'Corporate card' })).toBe(
      'Corporate card',
    );
    expect(describeOrderPaymentMethod({ paymentMethodTypeId: 2 })).toBeNull();
    expect(describeOrderPaymentMethod({ paymentMethodTypeId: null, creditCardNumber: '4242' })).toBeNull();
    expect(describeOrderPaymentMethod(undefined)).toBeNull();
  });
});
