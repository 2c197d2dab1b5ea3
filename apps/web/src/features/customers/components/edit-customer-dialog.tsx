import { Button, Group, Modal, NativeSelect, SimpleGrid, Stack, Text, TextInput } from '@mantine/core';
import { CUSTOMER_STATUS_VALUES, updateCustomerRequest, type CustomerRecord } from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { useUpdateCustomer } from '../api/customers';
import { changedFields, checkBody, serverFields, type FieldErrors } from '../lib/edit-form';
import { humanize } from '../lib/format';
import { isVersionConflict, notifySuccess } from '../lib/notify';

const FIELDS = ['legal_name', 'first_name', 'last_name', 'email', 'phone', 'federal_tax_id', 'business_type', 'account_manager', 'status'] as const;
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
    <Modal opened={opened} onClose={onClose} title="Edit customer" size="lg" centered>
      {opened && <EditCustomerForm customer={customer} onClose={onClose} />}
    </Modal>
  );
}

function EditCustomerForm({ customer, onClose }: { readonly customer: CustomerRecord; readonly onClose: () => void }) {
  // What the edit starts from is fixed when the dialog opens: a refresh meanwhile must not move the version.
  const [{ start, version }] = useState(() => ({ start: original(customer), version: customer.version }));
  const [draft, setDraft] = useState<Record<Field, string>>(() => Object.fromEntries(FIELDS.map((f) => [f, start[f] ?? ''])) as Record<Field, string>);
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);
  const update = useUpdateCustomer(customer.customer_id);

  const input = (field: Field, label: string, extra: { required?: boolean; type?: string; description?: string } = {}) => (
    <TextInput
      label={label}
      required={extra.required}
      type={extra.type}
      description={extra.description}
      value={draft[field]}
      onChange={(e) => {
        const value = e.currentTarget.value;
        setDraft((d) => ({ ...d, [field]: value }));
      }}
      error={errors[field]}
    />
  );

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const changes = changedFields(draft, start);
    if (Object.keys(changes).length === 0) {
      setMessage('Nothing changed.');
      return;
    }
    const body = { version, ...changes };
    const checked = checkBody(updateCustomerRequest, body);
    if (!checked.ok) {
      setErrors(checked.fields);
      setMessage(checked.message);
      return;
    }
    setErrors({});
    setMessage(null);
    update.mutate(checked.data, {
      onSuccess: () => {
        notifySuccess(`${customer.legal_name} was updated.`);
        onClose();
      },
      onError: (error) => {
        if (isVersionConflict(error)) onClose();
        else setErrors(serverFields(error));
      },
    });
  }

  return (
    <form onSubmit={submit} noValidate aria-label="Edit customer">
      <Stack gap="sm">
        {input('legal_name', 'Legal name', { required: true })}
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {input('first_name', 'First name', { required: true })}
          {input('last_name', 'Last name', { required: true })}
          {input('email', 'E-mail', { required: true, type: 'email' })}
          {input('phone', 'Phone', { type: 'tel' })}
          {input('federal_tax_id', 'Federal tax id', { description: 'NN-NNNNNNN or 9 digits' })}
          {input('business_type', 'Business type')}
          {input('account_manager', 'Account manager')}
          <NativeSelect
            label="Status"
            value={draft.status}
            onChange={(e) => {
              const value = e.currentTarget.value;
              setDraft((d) => ({ ...d, status: value }));
            }}
            error={errors.status}
            data={CUSTOMER_STATUS_VALUES.map((s) => ({ value: s, label: humanize(s) }))}
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
            Save customer
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
