/*
 * Live queues (issue 30, decision 156): the lists several people work at once — orders by status, approvals,
 * failed payments — ask the server again every few seconds while the page is visible (TanStack Query's
 * refetchInterval; none in a background tab), so a change by a colleague shows within seconds without a reload.
 * Polling, not server-sent events: each poll is one indexed page read, works through every proxy and across
 * server instances, and needs no connection kept per open tab.
 */

/** How often a visible live queue asks again. */
export const LIVE_QUEUE_MS = 5_000;

/** Spread into a queue's query options. */
export const LIVE_QUEUE = {
  refetchInterval: LIVE_QUEUE_MS,
  refetchIntervalInBackground: false,
  staleTime: 0,
} as const;
