import type { RouteId } from '../access/routes';
import { ORDER_TYPE, type OrderType } from '../codes/order';
import { assertNever } from '../util/assert-never';

export interface Milestone {
  readonly routeId: RouteId;
  readonly label: string;
}

export const MILESTONE_LABELS = {
  storeInfo: 'Store information',
  storeInfoFromNewOrder: 'ORDER',
  saleSummary: 'SELECT HARDWARE',
  paymentPlanMethod: 'PAYMENT (PLAN / METHOD)',
  charges: 'Recurring charges',
} as const;

/**
 * The milestone bar of the order flow (spec §2).
 * POS: store-info, sale-summary, payment-plan-method, charges. Non-POS: store-info and charges only.
 * The first step is labelled 'ORDER' when the flow was entered from the new-order page.
 */
export function orderMilestones(input: { readonly orderType: OrderType; readonly fromNewOrder: boolean }): Milestone[] {
  const first: Milestone = {
    routeId: 'storeInfo',
    label: input.fromNewOrder ? MILESTONE_LABELS.storeInfoFromNewOrder : MILESTONE_LABELS.storeInfo,
  };
  const charges: Milestone = { routeId: 'charges', label: MILESTONE_LABELS.charges };
  switch (input.orderType) {
    case ORDER_TYPE.POS:
      return [
        first,
        { routeId: 'saleSummary', label: MILESTONE_LABELS.saleSummary },
        { routeId: 'paymentPlanMethod', label: MILESTONE_LABELS.paymentPlanMethod },
        charges,
      ];
    case ORDER_TYPE.NON_POS:
      return [first, charges];
    default:
      return assertNever(input.orderType, `unknown order type ${String(input.orderType)}`);
  }
}

/** Index of the current milestone, or -1 when the route is not a milestone (the bar is then hidden). */
export function currentMilestoneIndex(milestones: readonly Milestone[], routeId: RouteId | string): number {
  return milestones.findIndex((m) => m.routeId === routeId);
}
