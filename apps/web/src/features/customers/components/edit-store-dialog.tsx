import { Button, Group, Modal, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { STORE_STATUS_VALUES, updateStoreRequest, type StoreRecord } from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { useUpdateStore } from '../api/customers';
import { changedFields, checkBody, serverFields, type FieldErrors } from '../lib/edit-form';
import { humanize } from '../lib/format';
import { isVersionConflict, notifySuccess } from '../lib/notify';

const FIELDS = ['store_name', 'doing_business_as', 'phone', 'mobile_phone', 'kind_of_business', 'sales_rep', 'account_manager', 'status'] as const;
type Field = (typeof FIELDS)[number];

function original(s: StoreRecord): Record<Field, string | null> {
  return {
    store_name: s.store_name,
    doing_business_as: s.doing_business_as,
    phone: s.phone,
    mobile_phone: s.mobile_phone,
    kind_of_business: s.kind_of_business,
    sales_rep: s.sales_rep,
    account_manager: s.account_manager,
    status: s.status,
  };
}

export interface EditStoreDialogProps {
  readonly store: StoreRecord;
  readonly opened: boolean;
  readonly onClose: () => void;
}

/** Edit store info (PUT /api/storeinfo/{storeId}): only the changed fields, with the store's version. */
export function EditStoreDialog({ store, opened, onClose }: EditStoreDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Edit store ${store.store_id}`} size="lg" centered>
      {opened && <EditStoreForm store={store} onClose={onClose} />}
    </Modal>
  );
}

function EditStoreForm({ store, onClose }: { readonly store: StoreRecord; readonly onClose: () => void }) {
  // What the edit starts from is fixed when the dialog opens: a refresh meanwhile must not move the version.
  const [{ start, version }] = useState(() => ({ start: original(store), version: store.version }));
  const [draft, setDraft] = useState<Record<Field, string>>(() => Object.fromEntries(FIELDS.map((f) => [f, start[f] ?? ''])) as Record<Field, string>);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const update = useUpdateStore(store.customer_id);

  const set = (field: Field, value: string) => setDraft((d) => ({ ...d, [field]: value }));
  const input = (field: Field, label: string, extra: { required?: boolean; type?: string } = {}) => (
    <TextInput label={label} required={extra.required} type={extra.type} value={draft[field]} onChange={(e) => set(field, e.currentTarget.value)} error={errors[field]} />
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const changes = changedFields(draft, start);
    if (Object.keys(changes).length === 0) {
      setMessage('Nothing changed.');
      return;
    }
    const checked = checkBody(updateStoreRequest, { version, ...changes });
    if (!checked.ok) {
      setErrors(checked.fields);
      setMessage(checked.message);
      return;
    }
    setErrors({});
    setMessage(null);
    update.mutate(
      { storeId: store.store_id, input: checked.data },
      {
        onSuccess: () => {
          notifySuccess(`Store ${store.store_id} was updated.`);
          onClose();
        },
        onError: (error) => {
          if (isVersionConflict(error)) onClose();
          else setErrors(serverFields(error));
        },
      },
    );
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Edit store">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {input('store_name', 'Store name', { required: true })}
          {input('doing_business_as', 'DBA name', { required: true })}
          {input('phone', 'Phone', { type: 'tel' })}
          {input('mobile_phone', 'Mobile phone', { type: 'tel' })}
          {input('kind_of_business', 'Kind of business')}
          {input('sales_rep', 'Sales rep')}
          {input('account_manager', 'Account manager')}
          <NativeSelect
            label="Status"
            value={draft.status}
            onChange={(e) => set('status', e.currentTarget.value)}
            error={errors.status}
            data={STORE_STATUS_VALUES.map((s) => ({ value: s, label: humanize(s) }))}
          />
        </SimpleGrid>
        {message && (
          <Text size="sm" c={message === 'Nothing changed.' ? 'dimmed' : 'red'} role="alert">
            {message}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose} disabled={update.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={update.isPending}>
            Save store
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
