import { notifications } from '@mantine/notifications';
import { isVersionConflict } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';

/*
 * Toasts of the customer screens. Their mutations turn the global error toast off (meta.silentError) and
 * call `notifyError`, so a version conflict can say what happened and what the screen did about it.
 */

export const CONFLICT_TITLE = 'Changed by someone else';
export const CONFLICT_MESSAGE =
  'Someone else changed this record while you were editing. The latest version is now shown: check it and make your change again.';

/** A failed call: the server's message plus what to do next. A version conflict gets its own words. */
export function notifyError(error: unknown): void {
  if (isVersionConflict(error)) {
    notifications.show({
      id: 'customer-conflict',
      color: 'orange',
      title: CONFLICT_TITLE,
      message: CONFLICT_MESSAGE,
      autoClose: 10_000,
      withBorder: true,
    });
    return;
  }
  const { title, message } = describeError(error);
  notifications.show({
    id: `customer-error:${title}:${message}`,
    color: 'red',
    title,
    message,
    autoClose: 8000,
    withBorder: true,
  });
}

export function notifySuccess(message: string, title = 'Saved'): void {
  notifications.show({ color: 'green', title, message, autoClose: 5000, withBorder: true });
}
