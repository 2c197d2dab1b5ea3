import { MerchantPaymentScreen } from '../components/merchant-payment-screen';

/** #/customer/payment/{tok} (public): pay what the store owes with a new card or bank account. */
export default function MerchantPaymentPage() {
  return <MerchantPaymentScreen purpose="payment_update" />;
}
