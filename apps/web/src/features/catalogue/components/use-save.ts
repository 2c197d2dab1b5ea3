import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { isApiError } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { refreshCatalogue } from '../api/catalogue-admin';

/**
 * One save of a catalogue dialog: the call, then the lists refreshed and a confirmation; on a refusal the fields'
 * messages next to them and a toast saying what to do (a stale version: reload and make the change again).
 */
export function useSave() {
  const queryClient = useQueryClient();
  const [busy, setBusy] = useState(false);
  const [errors, setErrors] = useState<Record<string, string>>({});
  async function save(call: () => Promise<unknown>, done: string): Promise<boolean> {
    setBusy(true);
    setErrors({});
    try {
      await call();
      await refreshCatalogue(queryClient);
      notifications.show({ color: 'green', title: 'Saved', message: done });
      return true;
    } catch (error) {
      if (isApiError(error)) setErrors({ ...error.fields });
      if (isApiError(error) && error.status === 409) await refreshCatalogue(queryClient);
      const { title, message } = describeError(error);
      notifications.show({ color: 'red', title, message, autoClose: 8000 });
      return false;
    } finally {
      setBusy(false);
    }
  }
  return { busy, errors, setErrors, save, clear: () => setErrors({}) };
}
