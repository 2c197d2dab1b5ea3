import {
  collectionCard,
  jobAcceptedInfo,
  merchantMethodReplaced,
  merchantPaymentResult,
  merchantPaymentView,
  paymentCollectionOutput,
  paymentCollectionSnsRequest,
  paymentCollectionView,
  type CollectionCardRequest,
  type MerchantPaymentRequest,
  type MerchantPayRequest,
  type PaymentCollectionOutput,
  type PaymentCollectionSnsRequest,
} from '@pos/domain';
import { queryOptions } from '@tanstack/react-query';
import { waitForJob } from '../../../api/jobs';
import { api } from '../../../lib/api';

/*
 * The merchant's payment pages (public; the link token is in the path) and the collection page — see
 * packages/domain/src/contracts/merchant-payments.ts (decisions 118, 155):
 *   GET/POST /api/public/payment/{tok}               'payment_update' link: what is owed / pay it
 *   POST /api/public/payment/{tok}/method            'payment_update' link: replace the method on file (no charge)
 *   GET/POST /api/public/payment/instrument/{tok}    'payment_instrument' link
 *   GET  /api/customers/paymentcollection/{paymentPlanId}/{token}
 *   POST /api/customers/paymentcollection/{paymentPlanId}/card/{token} (a new card for the collection)
 *   POST /api/customers/paymentcollection/sns/{token} (Idempotency-Key) → job → per-invoice outcomes
 */

export type MerchantPurpose = 'payment_update' | 'payment_instrument';

const path = (purpose: MerchantPurpose) =>
  purpose === 'payment_update' ? '/api/public/payment/{tok}' : '/api/public/payment/instrument/{tok}';

/** A link's page is read fresh each time it opens (it may be used or replaced meanwhile) and never retried. */
const LINK_PAGE = { retry: false, staleTime: 0, gcTime: 0 } as const;

export function getMerchantPaymentQueryOptions(purpose: MerchantPurpose, tok: string) {
  return queryOptions({
    queryKey: ['merchant-link', purpose, tok] as const,
    queryFn: async ({ signal }) =>
      merchantPaymentView.parse(await api.get<unknown>(path(purpose), { params: { tok }, signal })),
    ...LINK_PAGE,
  });
}

/** Pay what is owed (payment_update: the method on file or a new one), or give a method (payment_instrument). */
export async function payThroughLink(
  purpose: MerchantPurpose,
  tok: string,
  body: MerchantPayRequest | MerchantPaymentRequest,
  idempotencyKey: string,
) {
  return merchantPaymentResult.parse(await api.post<unknown>(path(purpose), body, { params: { tok }, idempotencyKey }));
}

/** Replace the method on file through a payment_update link: stored as the default, nothing charged. */
export async function replaceMethodThroughLink(tok: string, body: MerchantPaymentRequest, idempotencyKey: string) {
  return merchantMethodReplaced.parse(
    await api.post<unknown>('/api/public/payment/{tok}/method', body, { params: { tok }, idempotencyKey }),
  );
}

export function getPaymentCollectionQueryOptions(paymentPlanId: number) {
  return queryOptions({
    queryKey: ['payment-collection', paymentPlanId] as const,
    queryFn: async ({ signal }) =>
      paymentCollectionView.parse(
        await api.get<unknown>('/api/customers/paymentcollection/{paymentPlanId}/{token}', {
          params: { paymentPlanId },
          signal,
        }),
      ),
  });
}

/** Queue the collection and wait for its job: what became of each invoice. */
export async function collectNow(
  input: PaymentCollectionSnsRequest,
  idempotencyKey: string,
): Promise<PaymentCollectionOutput> {
  const body = paymentCollectionSnsRequest.parse(input);
  const { jobId } = jobAcceptedInfo.parse(
    await api.post<unknown>('/api/customers/paymentcollection/sns/{token}', body, { idempotencyKey }),
  );
  return paymentCollectionOutput.parse(await waitForJob(jobId, { timeoutMs: 60_000 }));
}

/** A new card for this collection (not the merchant's default). */
export async function addCollectionCard(paymentPlanId: number, body: CollectionCardRequest, idempotencyKey: string) {
  return collectionCard.parse(
    await api.post<unknown>('/api/customers/paymentcollection/{paymentPlanId}/card/{token}', body, {
      params: { paymentPlanId },
      idempotencyKey,
    }),
  );
}
