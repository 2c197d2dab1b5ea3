/** Order-level codes and the defaults of the blank order template (spec §1, §3). */

/**
 * Order types. 'P' (POS, hardware point-of-sale) is the spec's default (§3 orderType default P).
 * The spec names non-POS orders but not their code: we use 'N' (decision).
 */
export const ORDER_TYPE = {
  POS: 'P',
  NON_POS: 'N',
} as const;
export type OrderType = (typeof ORDER_TYPE)[keyof typeof ORDER_TYPE];
export const ORDER_TYPES: readonly OrderType[] = Object.values(ORDER_TYPE);
export const DEFAULT_ORDER_TYPE: OrderType = ORDER_TYPE.POS;
export const ORDER_TYPE_LABELS: Readonly<Record<OrderType, string>> = {
  P: 'POS',
  N: 'Non-POS',
};
export function isOrderType(value: unknown): value is OrderType {
  return typeof value === 'string' && (ORDER_TYPES as readonly string[]).includes(value);
}

/** Order flow (§1): an 'AR' flow or a 'RAM' flow. */
export const ORDER_FLOW = {
  AR: 'AR',
  RAM: 'RAM',
} as const;
export type OrderFlow = (typeof ORDER_FLOW)[keyof typeof ORDER_FLOW];
export const ORDER_FLOWS: readonly OrderFlow[] = Object.values(ORDER_FLOW);
export function isOrderFlow(value: unknown): value is OrderFlow {
  return typeof value === 'string' && (ORDER_FLOWS as readonly string[]).includes(value);
}
/** Pending orders are fetched with type=ar or type=ram (§7): the flow in lower case. */
export function pendingOrdersQueryType(flow: OrderFlow): Lowercase<OrderFlow> {
  return flow.toLowerCase() as Lowercase<OrderFlow>;
}

/** Note types (§3). */
export const NOTE_TYPE = {
  ORDER_NOTE: 'order_note',
  STATUS_REASON: 'status_reason',
} as const;
export type NoteType = (typeof NOTE_TYPE)[keyof typeof NOTE_TYPE];
export const NOTE_TYPES: readonly NoteType[] = Object.values(NOTE_TYPE);

/** The two payment plan / payment instrument entries of an order (§3 PaymentPlanInfo). */
export const PAYMENT_PLAN_KIND = {
  HARDWARE: 'hardware sale plan',
  MONTHLY: 'monthly plan',
} as const;
export type PaymentPlanKind = (typeof PAYMENT_PLAN_KIND)[keyof typeof PAYMENT_PLAN_KIND];
export const PAYMENT_PLAN_KINDS: readonly PaymentPlanKind[] = Object.values(PAYMENT_PLAN_KIND);

/** Defaults of the blank order summary template (§3). */
export const ORDER_DEFAULTS = {
  mobileConsent: 'N',
  noOfTerminals: 1,
  orderType: DEFAULT_ORDER_TYPE,
  customerCategory: 'DISTRIBUTOR',
  customerClass: 'POS',
  inventoryDatabaseExists: 'No',
  acceptsCreditCards: 'No',
  dbaAddressSameAsLegal: true,
  dbaSameAsLegal: false,
} as const;

/** Summary label used by the add-terminal order flow (§9). */
export const ADD_TERMINAL_ORDER_SUMMARY = 'AddTerminalOrderSummary';
/** What the add-terminal summary (label ADD_TERMINAL_ORDER_SUMMARY) says on screen: its table's caption. */
export const SUMMARY_LABEL_TEXT: Readonly<Record<typeof ADD_TERMINAL_ORDER_SUMMARY, string>> = {
  AddTerminalOrderSummary: 'Add-terminal order summary',
};
