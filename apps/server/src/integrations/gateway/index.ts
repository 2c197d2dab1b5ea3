import type { AppContext } from '../../app';
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

/*
 * AppContext has no gateway slot yet (app.ts belongs to the lead): one gateway per application context, made on
 * first use. The local gateway's signing key lives in it, so the tokenize route and the services must share it.
 */
const gateways = new WeakMap<AppContext, PaymentGateway>();

export function gatewayOf(ctx: AppContext): PaymentGateway {
  let gateway = gateways.get(ctx);
  if (!gateway) {
    gateway = createGateway(ctx.config, ctx.clock);
    gateways.set(ctx, gateway);
  }
  return gateway;
}

/** Tests: use this gateway for this application. */
export function setGateway(ctx: AppContext, gateway: PaymentGateway): void {
  gateways.set(ctx, gateway);
}
