import { MerchantPaymentScreen } from '../components/merchant-payment-screen';

/**
 * #/customer/payment/{tok} (public; decision 155): replace the payment method on file (nothing charged) or pay what
 * the store owes — two separate choices.
 */
export default function MerchantPaymentPage() {
  return <MerchantPaymentScreen />;
}
