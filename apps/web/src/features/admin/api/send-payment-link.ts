import {
  jobAcceptedInfo,
  updatePaymentNotificationRequest,
  type JobAcceptedInfo,
  type UpdatePaymentNotificationRequest,
} from '@pos/domain';
import { useMutation, useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { api } from '../../../lib/api';
import { adminKeys } from './keys';

/**
 * POST /api/customers/notifications/updatepayment/{token} {elmer_id} → 202 {jobId}: a worker e-mails the
 * merchant of the terminal's store a link to update the payment method (decision 025).
 */
export async function sendPaymentUpdateLink(input: UpdatePaymentNotificationRequest): Promise<JobAcceptedInfo> {
  const body = updatePaymentNotificationRequest.parse(input);
  return jobAcceptedInfo.parse(await api.post<unknown>('/api/customers/notifications/updatepayment/{token}', body));
}

/** Send the link; the job lists refresh (the new job shows). A caller's own onSuccess runs too. */
export function useSendPaymentUpdateLink(
  options: Pick<UseMutationOptions<JobAcceptedInfo, Error, UpdatePaymentNotificationRequest>, 'onSuccess'> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: sendPaymentUpdateLink,
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.jobs() });
      await options.onSuccess?.(...args);
    },
  });
}
