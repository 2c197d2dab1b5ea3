import {
  jobAcceptedInfo,
  updatePaymentNotificationRequest,
  type JobAcceptedInfo,
  type UpdatePaymentNotificationRequest,
} from '@pos/domain';
import { useMutation, type UseMutationOptions } from '@tanstack/react-query';
import { api } from '../lib/api';

/*
 * The payment-update link, sent from the customer page's store actions and edit-payment page and from the job
 * monitor (decision 025):
 *   POST /api/customers/notifications/updatepayment/{token} {elmer_id} → 202 {jobId}
 * A worker e-mails the merchant of the terminal's store a link to update the payment method.
 */

export async function sendPaymentUpdateLink(input: UpdatePaymentNotificationRequest): Promise<JobAcceptedInfo> {
  const body = updatePaymentNotificationRequest.parse(input);
  return jobAcceptedInfo.parse(await api.post<unknown>('/api/customers/notifications/updatepayment/{token}', body));
}

export type SendPaymentUpdateLinkOptions = Omit<
  UseMutationOptions<JobAcceptedInfo, Error, UpdatePaymentNotificationRequest>,
  'mutationFn'
>;

/** Send the link; the caller says what follows (which lists refresh, how a failure is told). */
export function useSendPaymentUpdateLink(options: SendPaymentUpdateLinkOptions = {}) {
  return useMutation({ ...options, mutationFn: sendPaymentUpdateLink });
}
