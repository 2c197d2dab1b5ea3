import { isApiError } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';

export const DEAD_LINK_MESSAGE =
  'This link has expired or was already used — ask your sales representative for a new one.';

/** Whether a failed call means the merchant's link is dead (used, replaced, expired or malformed). */
export function isDeadLink(error: unknown): boolean {
  return isApiError(error) && (error.status === 410 || error.status === 400);
}

/** What a merchant page shows for a failed submit: field messages, or one message under '_' (a dead link says so). */
export function submitErrors(error: unknown): Record<string, string> {
  if (isApiError(error) && error.status === 410) return { _: DEAD_LINK_MESSAGE };
  if (isApiError(error) && Object.keys(error.fields).length > 0) return error.fields;
  return { _: describeError(error).message };
}
