import type { AppConfig } from '../../config';
import type { Database } from '../../db/client';
import type { Clock } from '../../lib/clock';
import type { PaymentGateway } from './gateway.port';
import { createHttpGateway } from './http-gateway';
import { createLocalGateway } from './local-gateway';

export * from './gateway.port';
export {
  createLocalGateway,
  LOCAL_GATEWAY_TOKENIZE_PATH,
  LOCAL_TEST_CARDS,
  LOCAL_TEST_BANK_ACCOUNTS,
  LOCAL_SETTLEMENT_MS,
  type LocalGateway,
} from './local-gateway';

/** The gateway PAYMENT_GATEWAY_URL names: the HTTP gateway when set, else the local one (unavailable in production). */
export function createGateway(config: AppConfig, clock: Clock, database?: Database): PaymentGateway {
  const { url, apiKey } = config.gateway;
  if (url) return createHttpGateway({ url, apiKey });
  return createLocalGateway({
    clock,
    available: config.env !== 'production',
    ...(database ? { database } : {}),
    slowMs: config.gateway.localSlowMs,
  });
}
