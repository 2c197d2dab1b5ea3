import {
  crmStoreMidValidateOutput,
  crmStoreMidValidateRequest,
  jobAcceptedInfo,
  jobStatusInfo,
  terminalList,
  type CrmStoreMidValidateRequest,
  type JobAcceptedInfo,
  type JobStatusInfo,
  type Terminal,
} from '@pos/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { useSendPaymentUpdateLink as useSendLink } from '../../../api/notifications';
import { api, ApiError } from '../../../lib/api';
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

export async function getJobStatus(jobId: string, signal?: AbortSignal): Promise<JobStatusInfo> {
  return jobStatusInfo.parse(await api.get<unknown>('/api/jobs/{jobId}/{token}', { params: { jobId }, signal }));
}

export type MidValidation = z.infer<typeof crmStoreMidValidateOutput>;

export interface PollOptions {
  /** Between two looks at the job (default 500 ms). */
  readonly intervalMs?: number;
  /** Give up after this long (default 30 s). */
  readonly timeoutMs?: number;
  readonly signal?: AbortSignal;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Wait for a job to finish: its output when completed; an ApiError when it failed, was cancelled or took too long. */
export async function waitForJob(
  jobId: string,
  { intervalMs = 500, timeoutMs = 30_000, signal }: PollOptions = {},
): Promise<unknown> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const job = await getJobStatus(jobId, signal);
    if (job.state === 'completed') return job.output;
    if (job.state === 'failed' || job.state === 'cancelled') {
      throw new ApiError({
        status: 502,
        code: 'job_failed',
        message: job.error ? `The request failed: ${job.error}` : 'The request failed.',
      });
    }
    if (Date.now() >= deadline) {
      throw new ApiError({
        status: 504,
        code: 'job_timeout',
        message: 'No answer yet; the request is still queued. Try again in a minute',
      });
    }
    await sleep(intervalMs);
  }
}

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
