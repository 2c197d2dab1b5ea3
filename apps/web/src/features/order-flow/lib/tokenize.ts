import { getGatewayConfig } from '../../../api/payment-gateway';
import { isApiError } from '../../../lib/api';
import { tokenizeCard, type CardInput } from '../../../lib/gateway';
import type { MethodEntry } from '../components/payment-method-fields';

/**
 * A card typed on the step goes to the gateway's tokenize URL (never to /api); the entry keeps the token in
 * processorSetupIntent, which the server redeems on save (decision 083). Field errors come back keyed by the card field.
 */
export async function withCardToken(
  entry: MethodEntry,
  card: CardInput,
  name: string,
): Promise<{ entry: MethodEntry } | { errors: Record<string, string> }> {
  if (!card.number.trim()) return { entry };
  const config = await getGatewayConfig();
  try {
    const token = await tokenizeCard(config.tokenize_url, { ...card, name });
    return {
      entry: {
        ...entry,
        processorSetupIntent: token.token,
        creditCardNumber: token.last4,
        issuer: token.brand,
        expirationDate: `${String(token.exp_month).padStart(2, '0')}/${token.exp_year}`,
        paymentProcessorReference: null,
      },
    };
  } catch (error) {
    if (isApiError(error))
      return { errors: Object.keys(error.fields).length ? error.fields : { number: error.message } };
    throw error;
  }
}
