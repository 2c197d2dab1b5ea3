import { MerchantPaymentScreen } from '../components/merchant-payment-screen';

/** #/customer/payment/instrument/{tok} (public): give a new card or bank account; failed invoices are retried. */
export default function MerchantInstrumentPage() {
  return <MerchantPaymentScreen purpose="payment_instrument" />;
}
