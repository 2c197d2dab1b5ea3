/** Every error code the API answers with, and its HTTP status. One place; exhaustive. */
export const APP_ERROR_STATUS = {
  bad_request: 400,
  invalid_json: 400,
  validation_failed: 400,
  unauthenticated: 401,
  forbidden: 403,
  session_invalid: 403,
  xsrf_mismatch: 403,
  not_found: 404,
  route_not_found: 404,
  method_not_allowed: 405,
  conflict: 409,
  // The same Idempotency-Key while its first request is still running (decision 104): try again in a moment.
  idempotency_key_in_flight: 409,
  // A merchant's link (contract, re-authorization) that was used, replaced or has expired.
  link_expired: 410,
  version_conflict: 409,
  payload_too_large: 413,
  // A path parameter longer than the router takes (decision 133).
  uri_too_long: 414,
  unsupported_media_type: 415,
  // The same Idempotency-Key with another request (other body or path ids) (decision 104).
  idempotency_key_reused: 422,
  rate_limited: 429,
  internal: 500,
  // GET /api/customers/{token}/error/test: the deliberate error (issue 7, decision 078).
  test_error: 500,
  unavailable: 503,
} as const satisfies Record<string, number>;

export type AppErrorCode = keyof typeof APP_ERROR_STATUS;

export class AppError extends Error {
  override name = 'AppError';
  readonly status: number;
  constructor(
    readonly code: AppErrorCode,
    message: string,
    readonly fields?: Record<string, string>,
    /** Extra data sent with the error (e.g. the current record on a version conflict). */
    readonly details?: Record<string, unknown>,
  ) {
    super(message);
    this.status = APP_ERROR_STATUS[code];
  }
}

export const notFound = (what: string) => new AppError('not_found', `${what} was not found.`);

/**
 * 429 `rate_limited` that tells when to try again: the error handler sends `Retry-After` (whole seconds) with it, as
 * the per-address rate limits do.
 */
export class RateLimitedError extends AppError {
  constructor(
    message: string,
    readonly retryAfterSeconds: number,
  ) {
    super('rate_limited', message);
  }
}

/** 400 `validation_failed` for one field (the message shown next to it, and as the error's message). */
export const fieldError = (field: string, message: string) =>
  new AppError('validation_failed', message, { [field]: message });

/**
 * 409 `version_conflict` for an edit based on a stale `version` (optimistic concurrency): `current` is the record as it
 * is now, in the shape the read answers, so the client can show it and let the user make the change again.
 */
export function versionConflict(what: string, current: unknown, sent?: number): AppError {
  const yours = sent === undefined ? '' : ` (you sent version ${sent})`;
  return new AppError(
    'version_conflict',
    `${what} was changed by someone else since you opened it${yours}. Reload it and make your change again.`,
    undefined,
    { current },
  );
}
