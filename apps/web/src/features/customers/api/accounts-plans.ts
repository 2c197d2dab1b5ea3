import {
  featureChange,
  featureChangeList,
  featuresUpdateResult,
  paymentPlan,
  paymentPlanList,
  storeFeatures,
  type FeatureChange,
  type FeatureChangePrepareRequest,
  type FeaturesUpdateRequest,
  type FeaturesUpdateResult,
  type LicenseExpiryUpdateRequest,
  type PaymentPlan,
  type PaymentPlanCreateRequest,
  type PaymentPlanList,
  type PaymentPlanUpdateRequest,
  type StoreFeatures,
} from '@pos/domain';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { accountPath, compactQuery, useAccountMutation } from './accounts';
import { accountKeys } from './accounts-keys';

/*
 *   GET    …/customerpaymentplans?storeid&status&limit&offset&sort   → paymentPlanList
 *   GET    …/customerpaymentplans/{planId}                           → paymentPlan (the detail's extra fields are not in the contract)
 *   POST $ …/customerpaymentplans            paymentPlanCreateRequest → 201 paymentPlan
 *   POST   …/customerpaymentplans/{planId}   {license_expires_on, version} → paymentPlan
 *   PUT    …/customerpaymentplans/{planId}   paymentPlanUpdateRequest → paymentPlan   (/editpaymentplan)
 *   GET    …/features?custstoreid                                    → storeFeatures   (/editplan)
 *   PUT    …/features                        featuresUpdateRequest   → featuresUpdateResult
 */

export interface PlanFilter {
  readonly storeId: number | null;
  readonly limit: number;
  readonly offset: number;
  readonly status?: string;
  readonly sort?: string;
}

export async function getPlans(customerId: number, filter: PlanFilter, signal?: AbortSignal): Promise<PaymentPlanList> {
  const query = compactQuery({
    storeid: filter.storeId,
    status: filter.status,
    limit: filter.limit,
    offset: filter.offset,
    sort: filter.sort,
  });
  return paymentPlanList.parse(
    await api.get<unknown>(accountPath('/customerpaymentplans'), { params: { id: customerId }, query, signal }),
  );
}

export function getPlansQueryOptions(customerId: number, filter: PlanFilter) {
  return queryOptions({
    queryKey: accountKeys.plans(customerId, filter),
    queryFn: ({ signal }) => getPlans(customerId, filter, signal),
    placeholderData: keepPreviousData,
  });
}

export function usePlans(customerId: number, filter: PlanFilter, enabled = true) {
  return useQuery({ ...getPlansQueryOptions(customerId, filter), enabled });
}

export async function getPlan(customerId: number, planId: number, signal?: AbortSignal): Promise<PaymentPlan> {
  return paymentPlan.parse(
    await api.get<unknown>(accountPath('/customerpaymentplans/{planId}'), {
      params: { id: customerId, planId },
      signal,
    }),
  );
}

export function getPlanQueryOptions(customerId: number, planId: number) {
  return queryOptions({
    queryKey: accountKeys.plan(customerId, planId),
    queryFn: ({ signal }) => getPlan(customerId, planId, signal),
  });
}

export function usePlan(customerId: number, planId: number | null) {
  return useQuery({ ...getPlanQueryOptions(customerId, planId ?? 0), enabled: planId !== null });
}

export interface PlanCreation {
  readonly body: PaymentPlanCreateRequest;
  readonly idempotencyKey: string;
}

export async function addPlan(customerId: number, { body, idempotencyKey }: PlanCreation): Promise<PaymentPlan> {
  return paymentPlan.parse(
    await api.post<unknown>(accountPath('/customerpaymentplans'), body, { params: { id: customerId }, idempotencyKey }),
  );
}

export function useAddPlan(customerId: number) {
  return useAccountMutation(customerId, (input: PlanCreation) => addPlan(customerId, input));
}

export interface LicenseExpiryUpdate {
  readonly planId: number;
  readonly body: LicenseExpiryUpdateRequest;
}

export async function updateLicenseExpiry(
  customerId: number,
  { planId, body }: LicenseExpiryUpdate,
): Promise<PaymentPlan> {
  return paymentPlan.parse(
    await api.post<unknown>(accountPath('/customerpaymentplans/{planId}'), body, {
      params: { id: customerId, planId },
    }),
  );
}

export function useUpdateLicenseExpiry(customerId: number) {
  return useAccountMutation(customerId, (input: LicenseExpiryUpdate) => updateLicenseExpiry(customerId, input));
}

export interface PlanUpdate {
  readonly planId: number;
  readonly body: PaymentPlanUpdateRequest;
}

export async function updatePlan(customerId: number, { planId, body }: PlanUpdate): Promise<PaymentPlan> {
  return paymentPlan.parse(
    await api.put<unknown>(accountPath('/customerpaymentplans/{planId}'), body, { params: { id: customerId, planId } }),
  );
}

export function useUpdatePlan(customerId: number) {
  return useAccountMutation(customerId, (input: PlanUpdate) => updatePlan(customerId, input));
}

export async function getFeatures(customerId: number, storeId: number, signal?: AbortSignal): Promise<StoreFeatures> {
  return storeFeatures.parse(
    await api.get<unknown>(accountPath('/features'), {
      params: { id: customerId },
      query: { custstoreid: storeId },
      signal,
    }),
  );
}

export function getFeaturesQueryOptions(customerId: number, storeId: number) {
  return queryOptions({
    queryKey: accountKeys.features(customerId, storeId),
    queryFn: ({ signal }) => getFeatures(customerId, storeId, signal),
  });
}

export function useFeatures(customerId: number | null, storeId: number | null) {
  return useQuery({
    ...getFeaturesQueryOptions(customerId ?? 0, storeId ?? 0),
    enabled: customerId !== null && storeId !== null,
  });
}

export async function updateFeatures(customerId: number, body: FeaturesUpdateRequest): Promise<FeaturesUpdateResult> {
  return featuresUpdateResult.parse(
    await api.put<unknown>(accountPath('/features'), body, { params: { id: customerId } }),
  );
}

export function useUpdateFeatures(customerId: number) {
  return useAccountMutation(customerId, (body: FeaturesUpdateRequest) => updateFeatures(customerId, body));
}

/*
 * Feature changes for the merchant to accept (decision 123):
 *   POST …/featurechanges   featureChangePrepareRequest → featureChange (the link is e-mailed by a job)
 *   GET  …/featurechanges?custstoreid                  → featureChangeList
 *   POST …/featurechanges/{changeId}/cancel {version}  → featureChange
 */
export function getFeatureChangesQueryOptions(customerId: number, storeId: number) {
  return queryOptions({
    queryKey: accountKeys.featureChanges(customerId, storeId),
    queryFn: async ({ signal }) =>
      featureChangeList.parse(
        await api.get<unknown>(accountPath('/featurechanges'), {
          params: { id: customerId },
          query: { custstoreid: storeId },
          signal,
        }),
      ),
  });
}

export function useFeatureChanges(customerId: number, storeId: number) {
  return useQuery(getFeatureChangesQueryOptions(customerId, storeId));
}

export async function prepareFeatureChange(
  customerId: number,
  body: FeatureChangePrepareRequest,
): Promise<FeatureChange> {
  return featureChange.parse(
    await api.post<unknown>(accountPath('/featurechanges'), body, { params: { id: customerId } }),
  );
}

export function usePrepareFeatureChange(customerId: number) {
  return useAccountMutation(customerId, (body: FeatureChangePrepareRequest) => prepareFeatureChange(customerId, body));
}

export async function cancelFeatureChange(
  customerId: number,
  { changeId, version }: { changeId: number; version: number },
): Promise<FeatureChange> {
  return featureChange.parse(
    await api.post<unknown>(
      accountPath('/featurechanges/{changeId}/cancel'),
      { version },
      { params: { id: customerId, changeId } },
    ),
  );
}

export function useCancelFeatureChange(customerId: number) {
  return useAccountMutation(customerId, (input: { changeId: number; version: number }) =>
    cancelFeatureChange(customerId, input),
  );
}
