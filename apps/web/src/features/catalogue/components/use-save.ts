import { notifications } from '@mantine/notifications';
import type { UseMutationResult } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';

/**
 * What a catalogue dialog shows of a save (its hook in api/catalogue-admin.ts refreshes the lists): a confirmation,
 * then `onSaved` (the dialog closes); on a refusal the fields' messages next to them and a toast saying what to do
 * (a stale version: reload and make the change again).
 */
export function useSave() {
  const [errors, setErrors] = useState<Record<string, string>>({});
  function save<TVariables>(
    mutation: Pick<UseMutationResult<unknown, Error, TVariables>, 'mutate'>,
    variables: TVariables,
    done: string,
    onSaved: () => void,
  ): void {
    setErrors({});
    mutation.mutate(variables, {
      onSuccess: () => {
        notifications.show({ color: 'green', title: 'Saved', message: done });
        onSaved();
      },
      onError: (error) => {
        if (isApiError(error)) setErrors({ ...error.fields });
        const { title, message } = describeError(error);
        notifications.show({ color: 'red', title, message, autoClose: 8000 });
      },
    });
  }
  return { errors, setErrors, save };
}
