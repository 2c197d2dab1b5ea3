import { SimpleGrid, Stack } from '@mantine/core';
import { STORE_STATUS_VALUES, updateStoreRequest, type StoreRecord } from '@pos/domain';
import { useUpdateStore } from '../api/customers';
import { EditDialog, EditFormFooter, useRecordEdit } from './record-edit-form';

const FIELDS = [
  'store_name',
  'doing_business_as',
  'phone',
  'mobile_phone',
  'kind_of_business',
  'sales_rep',
  'account_manager',
  'status',
] as const;
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
    <EditDialog title={`Edit store ${store.store_id}`} opened={opened} onClose={onClose}>
      <EditStoreForm store={store} onClose={onClose} />
    </EditDialog>
  );
}

function EditStoreForm({ store, onClose }: { readonly store: StoreRecord; readonly onClose: () => void }) {
  const update = useUpdateStore(store.customer_id);
  const edit = useRecordEdit({
    fields: FIELDS,
    original: original(store),
    version: store.version,
    schema: updateStoreRequest,
    save: (input, callbacks) => update.mutate({ storeId: store.store_id, input }, callbacks),
    savedMessage: `Store ${store.store_id} was updated.`,
    onClose,
  });

  return (
    <form onSubmit={edit.submit} noValidate aria-label="Edit store">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {edit.input('store_name', 'Store name', { required: true })}
          {edit.input('doing_business_as', 'DBA name', { required: true })}
          {edit.input('phone', 'Phone', { type: 'tel' })}
          {edit.input('mobile_phone', 'Mobile phone', { type: 'tel' })}
          {edit.input('kind_of_business', 'Kind of business')}
          {edit.input('sales_rep', 'Sales rep')}
          {edit.input('account_manager', 'Account manager')}
          {edit.statusSelect('status', STORE_STATUS_VALUES)}
        </SimpleGrid>
        <EditFormFooter message={edit.message} busy={update.isPending} saveLabel="Save store" onClose={onClose} />
      </Stack>
    </form>
  );
}
