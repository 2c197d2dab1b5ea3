import { isApiError, isConflict } from '../../../../lib/api';

/**
 * `onError` of a one-field action dialog (retire, processor serial, license expiry): the server's message
 * for `field` goes under the field (or clears it); a refusal of the record's current state (409) closes the
 * dialog — the list reloads and the toast says why.
 */
export function fieldErrorOrClose(
  field: string,
  setError: (message: string | null) => void,
  onClose: () => void,
): (error: Error) => void {
  return (error) => {
    if (!isApiError(error)) return;
    setError(error.fields[field] ?? null);
    if (isConflict(error)) onClose();
  };
}
