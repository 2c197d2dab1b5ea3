import { Stack } from '@mantine/core';
import { isCountryCode, type StoreRecord } from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { useSaveStoreAddress } from '../api/customers';
import {
  addressDraft,
  addressFieldsFromServer,
  checkAddress,
  type AddressDraft,
  type AddressField,
} from '../lib/address';
import { serverFields } from '../lib/edit-form';
import { isConflict } from '../../../lib/api';
import { notifySuccess } from '../lib/notify';
import { AddressFields } from './address-fields';
import { EditDialog, EditFormFooter } from './record-edit-form';

export interface StoreAddressDialogProps {
  readonly store: StoreRecord;
  readonly opened: boolean;
  readonly onClose: () => void;
}

/**
 * Edit a store's address (POST /api/customers/{id}/customerstores/address {address, customer_store_id,
 * version}): the store's country's state list and ZIP rule; a US ZIP on a Canadian store is refused here
 * and by the server.
 */
export function StoreAddressDialog({ store, opened, onClose }: StoreAddressDialogProps) {
  return (
    <EditDialog title={`Edit address of store ${store.store_id}`} opened={opened} onClose={onClose}>
      <StoreAddressForm store={store} onClose={onClose} />
    </EditDialog>
  );
}

function StoreAddressForm({ store, onClose }: { readonly store: StoreRecord; readonly onClose: () => void }) {
  const country = isCountryCode(store.country) ? store.country : 'US';
  const [draft, setDraft] = useState<AddressDraft>(() => addressDraft(store.address, country));
  // The version the edit started from (a refresh while the dialog is open must not move it).
  const [version] = useState(store.version);
  const [errors, setErrors] = useState<Partial<Record<AddressField, string>>>({});
  const [message, setMessage] = useState<string | null>(null);
  const save = useSaveStoreAddress(store.customer_id);

  function checkField(field: AddressField) {
    if (field !== 'zip' || draft.zip.trim() === '') return;
    const checked = checkAddress(draft);
    setErrors((e) => ({ ...e, zip: checked.ok ? undefined : checked.fields.zip }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const checked = checkAddress(draft);
    if (!checked.ok) {
      setErrors(checked.fields);
      setMessage('Correct the marked fields.');
      return;
    }
    setErrors({});
    setMessage(null);
    save.mutate(
      {
        address: { ...draft, address2: draft.address2.trim() || undefined },
        customer_store_id: store.store_id,
        version,
      },
      {
        onSuccess: () => {
          notifySuccess(`The address of store ${store.store_id} was saved.`);
          onClose();
        },
        onError: (error) => {
          if (isConflict(error)) {
            onClose();
            return;
          }
          setErrors(addressFieldsFromServer(serverFields(error)));
          setMessage(error.message);
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Store address">
      <Stack gap="sm">
        <AddressFields value={draft} onChange={setDraft} errors={errors} onBlurField={checkField} />
        <EditFormFooter message={message} busy={save.isPending} saveLabel="Save address" onClose={onClose} />
      </Stack>
    </form>
  );
}
