import {
  crmStoreMidValidateOutput,
  crmStoreMidValidateRequest,
  jobAcceptedInfo,
  terminalList,
  type CrmStoreMidValidateRequest,
  type JobAcceptedInfo,
  type Terminal,
} from '@pos/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { useSendPaymentUpdateLink as useSendLink } from '../../../api/notifications';
import { getJobStatus, waitForJob, type PollOptions } from '../../../api/jobs';
import { api } from '../../../lib/api';
import { notifyError } from '../lib/notify';
import { customerKeys } from './keys';

/*
 * The store actions backed by the queue calls (spec §7 "Notification and queue POSTs"); each answers
 * 202 {jobId} and a worker does the work:
 *   POST /api/customers/notifications/updatepayment/{token} {elmer_id}   e-mail the payment-update link (api/notifications.ts)
 *   POST /api/customers/stores/{token}/{storeId}/pushlicense (no body)    push the license to the terminals
 *   POST /api/zoho/storemidvalidate/{token} {MID, storeid?}               ask the CRM; the job output answers
 *   GET  /api/jobs/{jobId}/{token}                                        the job's state and output
 */

export async function pushLicense(storeId: number): Promise<JobAcceptedInfo> {
  return jobAcceptedInfo.parse(
    await api.post<unknown>('/api/customers/stores/{token}/{storeId}/pushlicense', undefined, { params: { storeId } }),
  );
}

export { getJobStatus, waitForJob, type PollOptions };

export type MidValidation = z.infer<typeof crmStoreMidValidateOutput>;

/** Queue a MID validation and wait for the CRM's answer ({MID, valid, reason?}). */
export async function validateMid(input: CrmStoreMidValidateRequest, poll?: PollOptions): Promise<MidValidation> {
  const body = crmStoreMidValidateRequest.parse(input);
  const { jobId } = jobAcceptedInfo.parse(await api.post<unknown>('/api/zoho/storemidvalidate/{token}', body));
  return crmStoreMidValidateOutput.parse(await waitForJob(jobId, poll));
}

/* The two queue calls below show their own failure toast (lib/notify), the global one is off. */

export function useSendPaymentUpdateLink() {
  return useSendLink({ meta: { silentError: true }, onError: notifyError });
}

export function usePushLicense() {
  return useMutation({ mutationFn: pushLicense, meta: { silentError: true }, onError: notifyError });
}

export function useValidateMid() {
  return useMutation({ mutationFn: (input: CrmStoreMidValidateRequest) => validateMid(input) });
}

/**
 * The store's terminals that can receive a payment-update link (not retired), for the "Send payment-update
 * link" dialog: GET /api/customers/{id}/{token}/customerterminals?storeid= (the accounts contract).
 */
export async function getLinkableTerminals(
  customerId: number,
  storeId: number,
  signal?: AbortSignal,
): Promise<Terminal[]> {
  const info = await api.get<unknown>('/api/customers/{id}/{token}/customerterminals', {
    params: { id: customerId },
    query: { storeid: storeId, limit: 100 },
    signal,
  });
  return terminalList.parse(info).items.filter((t) => t.status !== 'retired');
}

export function useLinkableTerminals(customerId: number, storeId: number, enabled: boolean) {
  return useQuery({
    queryKey: customerKeys.linkableTerminals(customerId, storeId),
    queryFn: ({ signal }) => getLinkableTerminals(customerId, storeId, signal),
    enabled,
  });
}
