import type { AppConfig } from '../../config';
import type { Clock } from '../../lib/clock';
import type { PaymentGateway } from './gateway.port';
import { createHttpGateway } from './http-gateway';
import { createLocalGateway } from './local-gateway';

export * from './gateway.port';
export { createLocalGateway, LOCAL_GATEWAY_TOKENIZE_PATH, type LocalGateway } from './local-gateway';

/** The gateway PAYMENT_GATEWAY_URL names: the HTTP gateway when set, else the local one (unavailable in production). */
export function createGateway(config: AppConfig, clock: Clock): PaymentGateway {
  const { url, apiKey } = config.gateway;
  if (url) return createHttpGateway({ url, apiKey });
  return createLocalGateway({ clock, available: config.env !== 'production' });
}
