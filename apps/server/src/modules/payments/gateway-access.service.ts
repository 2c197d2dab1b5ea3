import type { AppContext } from '../../context';
import type {
  CardDetails,
  GatewayCustomerInput,
  SettlementEntry,
  SettlementReportInput,
} from '../../integrations/gateway';

/*
 * The gateway calls that move no money (decision 144): redeeming a card token, the gateway's customer, what the
 * browser needs to tokenize a card. They stay with their callers (orders, contracts, payment instruments, the
 * authorization) but go through here, so modules/payments is the only module that reaches the gateway port — the
 * rule check-imports enforces.
 */

/** Where and how the browser tokenizes a card. */
export function gatewayInfo(app: Pick<AppContext, 'gateway'>): {
  provider: 'local' | 'remote';
  tokenize_url: string;
  available: boolean;
} {
  return { provider: app.gateway.kind, tokenize_url: app.gateway.tokenizeUrl, available: app.gateway.available };
}

/** Redeem a card token for brand, last 4, expiry and the processor reference (400 card_token when it is not valid). */
export function redeemCardToken(app: Pick<AppContext, 'gateway'>, token: string): Promise<CardDetails> {
  return app.gateway.redeemCardToken(token);
}

/** Create or update the gateway's customer (spec §7 POST /customers/{id}); moves no money. */
export function updateGatewayCustomer(
  app: Pick<AppContext, 'gateway'>,
  input: GatewayCustomerInput,
): Promise<{ customerReference: string }> {
  return app.gateway.updateCustomer(input);
}

/** The gateway's own books of a day and currency (what it settled, refunded, voided, charged back): reconciliation. */
export function gatewaySettlementReport(
  app: Pick<AppContext, 'gateway'>,
  input: SettlementReportInput,
): Promise<SettlementEntry[]> {
  return app.gateway.settlementReport(input);
}

export type { SettlementEntry };
