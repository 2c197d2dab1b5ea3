import { SimpleGrid, Stack } from '@mantine/core';
import { CUSTOMER_STATUS_VALUES, updateCustomerRequest, type CustomerRecord } from '@pos/domain';
import { useUpdateCustomer } from '../api/customers';
import { EditDialog, EditFormFooter, useRecordEdit } from './record-edit-form';

const FIELDS = [
  'legal_name',
  'first_name',
  'last_name',
  'email',
  'phone',
  'federal_tax_id',
  'business_type',
  'account_manager',
  'status',
] as const;
type Field = (typeof FIELDS)[number];

function original(c: CustomerRecord): Record<Field, string | null> {
  return {
    legal_name: c.legal_name,
    first_name: c.first_name,
    last_name: c.last_name,
    email: c.email,
    phone: c.phone,
    federal_tax_id: c.federal_tax_id,
    business_type: c.business_type,
    account_manager: c.account_manager,
    status: c.status,
  };
}

export interface EditCustomerDialogProps {
  readonly customer: CustomerRecord;
  readonly opened: boolean;
  readonly onClose: () => void;
}

/** Edit customer info (PUT /api/customerinfo/{id}): only the changed fields, with the record's version. */
export function EditCustomerDialog({ customer, opened, onClose }: EditCustomerDialogProps) {
  return (
    <EditDialog title="Edit customer" opened={opened} onClose={onClose}>
      <EditCustomerForm customer={customer} onClose={onClose} />
    </EditDialog>
  );
}

function EditCustomerForm({ customer, onClose }: { readonly customer: CustomerRecord; readonly onClose: () => void }) {
  const update = useUpdateCustomer(customer.customer_id);
  const edit = useRecordEdit({
    fields: FIELDS,
    original: original(customer),
    version: customer.version,
    schema: updateCustomerRequest,
    save: (body, callbacks) => update.mutate(body, callbacks),
    savedMessage: `${customer.legal_name} was updated.`,
    onClose,
  });

  return (
    <form onSubmit={edit.submit} noValidate aria-label="Edit customer">
      <Stack gap="sm">
        {edit.input('legal_name', 'Legal name', { required: true })}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {edit.input('first_name', 'First name', { required: true })}
          {edit.input('last_name', 'Last name', { required: true })}
          {edit.input('email', 'E-mail', { required: true, type: 'email' })}
          {edit.input('phone', 'Phone', { type: 'tel' })}
          {edit.input('federal_tax_id', 'Federal tax id', { description: 'NN-NNNNNNN or 9 digits' })}
          {edit.input('business_type', 'Business type')}
          {edit.input('account_manager', 'Account manager')}
          {edit.statusSelect('status', CUSTOMER_STATUS_VALUES)}
        </SimpleGrid>
        <EditFormFooter message={edit.message} busy={update.isPending} saveLabel="Save customer" onClose={onClose} />
      </Stack>
    </form>
  );
}
