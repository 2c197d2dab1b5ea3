import { isApiError, isConflict, isVersionConflict } from './api';

export interface UserMessage {
  readonly title: string;
  readonly message: string;
}

/**
 * What to tell the user about a failed call: the server's message plus what to do next.
 * Used by the global query/mutation error toasts.
 */
export function describeError(error: unknown): UserMessage {
  if (!isApiError(error)) {
    return { title: 'Something went wrong', message: 'An unexpected error happened. Reload the page and try again.' };
  }
  const said = error.message.trim();
  const sentence = /[.!?]$/.test(said) ? said : `${said}.`;
  if (error.code === 'network') return { title: 'No connection', message: sentence };
  if (error.status === 403) return { title: 'Signed out', message: `${sentence} Sign in again to continue.` };
  if (error.status === 400 || error.status === 422) {
    const next =
      Object.keys(error.fields).length > 0
        ? 'Correct the marked fields and try again.'
        : 'Check what you entered and try again.';
    return { title: 'Check your input', message: `${sentence} ${next}` };
  }
  if (error.status === 404) return { title: 'Not found', message: `${sentence} Check the link or search again.` };
  if (isConflict(error)) {
    // version_conflict: someone else saved the record first. Any other 409 (code 'conflict': "already
    // retired", "already has an active monthly plan"…) is a rule of the record's current state.
    if (isVersionConflict(error))
      return {
        title: 'Changed elsewhere',
        message: `${sentence} Reload the page to see the latest data, then try again.`,
      };
    return { title: 'Not possible', message: `${sentence} Check the record and try again.` };
  }
  if (error.status === 429) return { title: 'Too many requests', message: `${sentence} Wait a moment and try again.` };
  if (error.status >= 500) {
    return {
      title: 'Server problem',
      message: `${sentence} Try again in a moment; if it keeps happening, contact support.`,
    };
  }
  return { title: 'Request failed', message: `${sentence} Try again.` };
}
