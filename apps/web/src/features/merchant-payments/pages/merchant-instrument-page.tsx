import { MerchantInstrumentScreen } from '../components/merchant-instrument-screen';

/** #/customer/payment/instrument/{tok} (public): give a new card or bank account; failed invoices are retried. */
export default function MerchantInstrumentPage() {
  return <MerchantInstrumentScreen />;
}
