import type { JobAcceptedInfo, UpdatePaymentNotificationRequest } from '@pos/domain';
import { useQueryClient, type UseMutationOptions } from '@tanstack/react-query';
import { useSendPaymentUpdateLink as useSendLink } from '../../../api/notifications';
import { adminKeys } from './keys';

/**
 * Send the payment-update link (api/notifications.ts; decision 025) from the job monitor; the job lists refresh
 * (the new job shows). A caller's own onSuccess runs too.
 */
export function useSendPaymentUpdateLink(
  options: Pick<UseMutationOptions<JobAcceptedInfo, Error, UpdatePaymentNotificationRequest>, 'onSuccess'> = {},
) {
  const queryClient = useQueryClient();
  return useSendLink({
    onSuccess: async (...args) => {
      await queryClient.invalidateQueries({ queryKey: adminKeys.jobs() });
      await options.onSuccess?.(...args);
    },
  });
}
