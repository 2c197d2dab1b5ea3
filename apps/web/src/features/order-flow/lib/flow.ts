import { currentMilestoneIndex, orderMilestones, type OrderType, type RouteId } from '@pos/domain';

/** The steps of the order flow in order (spec §2): POS has all five, non-POS skips hardware and payment. */
export type StepId = 'storeInfo' | 'saleSummary' | 'paymentPlanMethod' | 'charges' | 'summary';

const PATHS: Readonly<Record<StepId, string>> = {
  storeInfo: 'store-info',
  saleSummary: 'sale-summary',
  paymentPlanMethod: 'payment-plan-method',
  charges: 'charges',
  summary: 'summary',
};

export function stepsFor(orderType: OrderType): StepId[] {
  return orderType === 'N'
    ? ['storeInfo', 'charges', 'summary']
    : ['storeInfo', 'saleSummary', 'paymentPlanMethod', 'charges', 'summary'];
}

export function stepPath(step: StepId, orderId: number): string {
  return `/${PATHS[step]}/${orderId}`;
}

export function nextStep(orderType: OrderType, step: StepId): StepId | null {
  const steps = stepsFor(orderType);
  return steps[steps.indexOf(step) + 1] ?? null;
}

export function previousStep(orderType: OrderType, step: StepId): StepId | null {
  const steps = stepsFor(orderType);
  const i = steps.indexOf(step);
  return i > 0 ? steps[i - 1]! : null;
}

/** The header's milestone bar for a step: the summary shows every milestone done (decision 090). */
export function milestoneProgress(orderType: OrderType, fromNewOrder: boolean, step: StepId) {
  const milestones = orderMilestones({ orderType, fromNewOrder });
  const current = step === 'summary' ? milestones.length : currentMilestoneIndex(milestones, step as RouteId);
  return { milestones, current };
}
