import type { CurrencyCode } from '../codes/currencies';
import type { OrderPaymentHold } from '../contracts/payment-authorizations';
import { formatMoney } from './money';
import { describeCard } from './payment-method-text';

/*
 * What the order flow says about the hardware's money (issue 29 item 1, decision 151): the card hold in words, the
 * decline in words, and for orders that take no hold how the money will come. One sentence, the same on the payment
 * step, the summary and the order panel.
 */
export function orderHoldMessage(hold: Omit<OrderPaymentHold, 'message'>): string {
  const currency = hold.currency as CurrencyCode;
  const upfront = formatMoney(hold.upfront_cents, currency);
  const card = hold.card ? describeCard(hold.card.brand, hold.card.last4) : 'the card';
  const held = formatMoney(hold.amount_cents ?? hold.upfront_cents, currency);
  switch (hold.state) {
    case 'authorized':
      return `Authorized ${held} on ${card}: captured when the order is complete.`;
    case 'declined':
      return `${card} was declined: ${hold.decline_reason ?? 'the issuer gave no reason'}. Enter another card, or try this one again.`;
    case 'pending':
      return `The hold of ${held} on ${card} has no answer from the gateway yet: try again.`;
    case 'needs_card':
      return `Enter the card: ${upfront} (tax included) is authorized on it when you save.`;
    case 'closed': {
      const st = hold.settlement;
      if (!st) return 'The order is closed; it had no card hold.';
      const amount = formatMoney(st.amount_cents, currency);
      if (st.action === 'capture') {
        const what = st.invoice_number ? ` for invoice ${st.invoice_number}` : '';
        if (st.status === 'done') return `Captured ${amount} on ${card}${what}.`;
        if (st.status === 'failed')
          return `The capture of ${amount} on ${card}${what} failed${st.failure_reason ? `: ${st.failure_reason}` : ''}; the invoice is in failed payments.`;
        return `Capturing ${amount} on ${card}${what}.`;
      }
      if (st.status === 'done') return `Released: the hold of ${amount} on ${card} was voided; nothing was charged.`;
      return `Releasing the hold of ${amount} on ${card}; nothing is charged.`;
    }
    case 'not_needed':
      if (hold.installments) return 'Installments: nothing is paid upfront; the billing run invoices each installment.';
      if (hold.upfront_cents <= 0) return 'Nothing is paid upfront on this order.';
      if (hold.method === 'bank')
        return `No card hold: the bank account is debited ${upfront} when the order is complete.`;
      if (hold.method === 'cash')
        return `No card hold: the merchant pays ${upfront} by cash or check; AR records the receipt when the order is complete.`;
      return `Choose how the merchant pays the ${upfront} upfront.`;
  }
}
