import { agentSwitchOutput, jobAcceptedInfo, type AgentSwitchSnsRequest } from '@pos/domain';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { waitForJob } from '../../../api/jobs';
import { api, isApiError } from '../../../lib/api';
import { orderKeys } from './orders';

/*
 * Moving orders to another agent in bulk, from the order list (issue 31; spec §7):
 *   POST /api/orderinfo/agentswitch/sns/{token} {orderInfoIds, agent_id}  Idempotency-Key → 202 {jobId}
 *   GET  /api/jobs/{jobId}/{token}   followed to its end; a completed job answers {agentId, orders}
 * The job moves every order asked for or, failing, none.
 */

/** One order's outcome of a bulk move. */
export interface AgentMoveResult {
  readonly orderId: number;
  readonly moved: boolean;
  /** Why it was not moved (null when moved). */
  readonly reason: string | null;
}

export interface MoveOrdersInput {
  readonly orderIds: readonly number[];
  readonly agentId: number;
  /** The same key for a repeat of the same move (a lost answer): the server answers the same job. */
  readonly idempotencyKey: string;
}

export interface MoveOrdersOutcome {
  readonly jobId: string | null;
  readonly results: readonly AgentMoveResult[];
}

export async function requestAgentSwitch(body: AgentSwitchSnsRequest, idempotencyKey: string): Promise<string> {
  const info = await api.post<unknown>('/api/orderinfo/agentswitch/sns/{token}', body, { idempotencyKey });
  return jobAcceptedInfo.parse(info).jobId;
}

/** The job could not be asked for or did not finish: a refusal or failure moved none of the orders. */
const notMoved = (orderIds: readonly number[], reason: string): AgentMoveResult[] =>
  orderIds.map((orderId) => ({ orderId, moved: false, reason }));

/**
 * Ask for the move and follow its job; the answer has one result per order. A refusal of the request (400, 404: an
 * order or the agent not found, the agent inactive) or a failed job is a result too — no order moved, with the
 * reason. Only an unknown outcome (no answer, a 5xx, the job still queued) is thrown, so the caller keeps the key.
 * Every page of the order list and each order read by id refresh once the job has ended.
 */
export function useMoveOrdersToAgent() {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silentError: true },
    mutationFn: async ({ orderIds, agentId, idempotencyKey }: MoveOrdersInput): Promise<MoveOrdersOutcome> => {
      let jobId: string;
      try {
        jobId = await requestAgentSwitch({ orderInfoIds: [...orderIds], agent_id: agentId }, idempotencyKey);
      } catch (error) {
        if (isApiError(error) && error.status >= 400 && error.status < 500)
          return { jobId: null, results: notMoved(orderIds, error.message) };
        throw error;
      }
      try {
        const output = agentSwitchOutput.parse(await waitForJob(jobId, { timeoutMs: 60_000 }));
        const moved = new Set(output.orders);
        return {
          jobId,
          results: orderIds.map((orderId) =>
            moved.has(orderId)
              ? { orderId, moved: true, reason: null }
              : { orderId, moved: false, reason: 'Not found, or not yours to move.' },
          ),
        };
      } catch (error) {
        if (isApiError(error) && error.code === 'job_failed')
          return { jobId, results: notMoved(orderIds, error.message) };
        throw error;
      }
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: orderKeys.all }),
  });
}
