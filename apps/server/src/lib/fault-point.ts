import type { AppConfig } from '../config';

/**
 * The named moments a crash test kills the process at (decision 134). Each is a spot where a crash must leave
 * nothing half-written: inside a transaction before its commit, or between two commits.
 */
export type FaultPoint =
  | 'billing-run:batch-uncommitted'
  | 'billing-run:batch-committed'
  | 'receipt-apply:uncommitted'
  | 'order-submit:uncommitted';

/** What the process writes to stderr when it reaches the point (the test waits for this line, then SIGKILLs). */
export const faultPointLine = (name: FaultPoint) => `fault point reached: ${name}`;

/**
 * Test-only fault injection: when TEST_FAULT_POINT (NODE_ENV=test only) names this point, announce it on stderr
 * and never go on — the request or job hangs here, holding what it holds (an open transaction, row locks), until
 * the test kills the process. A no-op otherwise (one comparison).
 */
export async function faultPoint(config: Pick<AppConfig, 'faultPoint'> | undefined, name: FaultPoint): Promise<void> {
  // No config at all: a test that drives a service with a partial AppContext (never a fault point).
  if (config?.faultPoint !== name) return;
  process.stderr.write(`${faultPointLine(name)}\n`);
  await new Promise<never>(() => undefined);
}
