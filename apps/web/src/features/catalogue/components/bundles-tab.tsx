import {
  Badge,
  Button,
  Checkbox,
  Divider,
  Group,
  Modal,
  NumberInput,
  Select,
  Stack,
  Table,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { CURRENCY_CODES, parseMoney, type AdminBundle, type AdminPriceOption, type CurrencyCode } from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { DataTable } from '../../../components/list/data-table';
import { formatCents } from '../../../lib/format';
import { useAdminBillingItems, useAdminBundles, useSaveBundle, useSavePriceOption } from '../api/catalogue-admin';
import { centsToInput, type Column } from '../lib/table';
import { CatalogueList, ListUnavailable } from './catalogue-list';
import { useSave } from './use-save';

const COLUMNS: readonly Column<AdminBundle>[] = [
  { key: 'id', label: 'Id', value: (r) => r.bundle_id },
  { key: 'name', label: 'Name', value: (r) => r.name },
  { key: 'nrs', label: 'NRS Pay', value: (r) => (r.nrs_pay ? 'Yes' : 'No') },
  { key: 'options', label: 'Price options', value: (r) => r.options.length },
  { key: 'active', label: 'Status', value: (r) => (r.active ? 'Active' : 'Inactive') },
];

function cell(row: AdminBundle, key: string) {
  if (key === 'active')
    return <Badge color={row.active ? 'green' : 'gray'}>{row.active ? 'Active' : 'Inactive'}</Badge>;
  return String(COLUMNS.find((c) => c.key === key)!.value(row) ?? '—');
}

/** One price option's form: add (option null) or edit, under the bundle's version. */
function OptionForm({
  bundle,
  option,
  onDone,
}: {
  readonly bundle: AdminBundle;
  readonly option: AdminPriceOption | null;
  onDone: () => void;
}) {
  const items = useAdminBillingItems().data?.items ?? [];
  const [itemId, setItemId] = useState<string | null>(option ? String(option.billing_item_id) : null);
  const [currency, setCurrency] = useState<CurrencyCode>(option?.currency ?? 'USD');
  const [reference, setReference] = useState<number | string>(option?.reference_id ?? '');
  const [label, setLabel] = useState(option?.label ?? 'Monthly');
  const [price, setPrice] = useState(centsToInput(option?.price_cents));
  const [term, setTerm] = useState<number | string>(option?.term ?? 1);
  const saving = useSavePriceOption();
  const { errors, setErrors, save } = useSave();

  function submit(e: FormEvent) {
    e.preventDefault();
    const money = parseMoney(price, currency);
    if (!money || money.cents < 0) return setErrors({ price_cents: 'Enter the price as an amount, e.g. 49.00.' });
    const body = {
      billing_item_id: Number(itemId ?? 0),
      currency,
      reference_id: typeof reference === 'number' ? reference : null,
      label,
      price_cents: money.cents,
      term: typeof term === 'number' ? term : 1,
      version: bundle.version,
    };
    save(
      saving,
      { bundleId: bundle.bundle_id, optionId: option?.id ?? null, body },
      `Price option ${label} saved.`,
      onDone,
    );
  }

  return (
    <form onSubmit={submit} aria-label={option ? 'Edit price option' : 'Add price option'} noValidate>
      <Stack gap="xs">
        <Title order={4}>{option ? `Edit price option ${option.label}` : 'Add price option'}</Title>
        <Select
          label="Billing item"
          searchable
          data={items.map((i) => ({ value: String(i.billing_item_id), label: `${i.billing_item_id} ${i.name}` }))}
          value={itemId}
          onChange={setItemId}
          error={errors.billing_item_id}
        />
        <Group grow>
          <Select
            label="Currency"
            data={[...CURRENCY_CODES]}
            value={currency}
            onChange={(v) => setCurrency((v as CurrencyCode | null) ?? 'USD')}
            allowDeselect={false}
          />
          <TextInput
            label="Option label"
            value={label}
            onChange={(e) => setLabel(e.currentTarget.value)}
            error={errors.label}
          />
        </Group>
        <Group grow>
          <TextInput
            label={`Price (${currency})`}
            inputMode="decimal"
            value={price}
            onChange={(e) => setPrice(e.currentTarget.value)}
            error={errors.price_cents}
          />
          <NumberInput
            label="Term (months)"
            min={1}
            max={120}
            allowDecimal={false}
            value={term}
            onChange={setTerm}
            error={errors.term}
          />
          <NumberInput
            label="Reference id (plan)"
            description="Empty: the default option"
            min={1}
            allowDecimal={false}
            value={reference}
            onChange={setReference}
          />
        </Group>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button type="submit" loading={saving.isPending}>
            Save price option
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function BundleDialog({ bundle, onClose }: { readonly bundle: AdminBundle | null; onClose: () => void }) {
  const [name, setName] = useState(bundle?.name ?? '');
  const [description, setDescription] = useState(bundle?.description ?? '');
  const [nrsPay, setNrsPay] = useState(bundle?.nrs_pay ?? false);
  const [active, setActive] = useState(bundle?.active ?? true);
  const [option, setOption] = useState<AdminPriceOption | 'new' | null>(null);
  const saving = useSaveBundle();
  const { errors, save } = useSave();
  // The bundle as it is now (its version moves with every option saved).
  const current = useAdminBundles().data?.items.find((b) => b.bundle_id === bundle?.bundle_id) ?? bundle;

  function submit(e: FormEvent) {
    e.preventDefault();
    const fields = { name, description: description.trim() === '' ? null : description, nrs_pay: nrsPay };
    save(
      saving,
      current === null
        ? { id: null, body: fields }
        : { id: current.bundle_id, body: { ...fields, active, version: current.version } },
      `Bundle ${name} saved.`,
      onClose,
    );
  }

  return (
    <Modal opened onClose={onClose} title={current ? `Edit bundle ${current.bundle_id}` : 'Add bundle'} size="xl">
      <form onSubmit={submit} aria-label={current ? 'Edit bundle' : 'Add bundle'} noValidate>
        <Stack>
          <TextInput
            label="Name"
            required
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
            error={errors.name}
          />
          <Textarea
            label="Description"
            value={description}
            onChange={(e) => setDescription(e.currentTarget.value)}
            error={errors.description}
          />
          <Group>
            <Checkbox label="NRS Pay bundle" checked={nrsPay} onChange={(e) => setNrsPay(e.currentTarget.checked)} />
            {current && (
              <Checkbox label="Active" checked={active} onChange={(e) => setActive(e.currentTarget.checked)} />
            )}
          </Group>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button type="submit" loading={saving.isPending}>
              Save bundle
            </Button>
          </Group>
        </Stack>
      </form>
      {current && (
        <Stack mt="md">
          <Divider />
          <DataTable
            caption="Price options"
            columns={['Billing item', 'Currency', 'Label', 'Reference', 'Term', 'Price', 'Actions']}
            minWidth={640}
            rowCount={current.options.length}
            emptyText="No price options yet."
          >
            {current.options.map((o) => (
              <Table.Tr key={o.id}>
                <Table.Td>{o.billing_item_name}</Table.Td>
                <Table.Td>{o.currency}</Table.Td>
                <Table.Td>{o.label}</Table.Td>
                <Table.Td>{o.reference_id ?? '—'}</Table.Td>
                <Table.Td>{o.term}</Table.Td>
                <Table.Td>{formatCents(o.price_cents, o.currency)}</Table.Td>
                <Table.Td>
                  <Button
                    size="xs"
                    variant="light"
                    onClick={() => setOption(o)}
                    aria-label={`Edit option ${o.label} ${o.currency} ${o.billing_item_name}`}
                  >
                    Edit
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </DataTable>
          {option === null ? (
            <Group>
              <Button variant="light" onClick={() => setOption('new')}>
                Add price option
              </Button>
            </Group>
          ) : (
            <OptionForm
              key={option === 'new' ? 'new' : option.id}
              bundle={current}
              option={option === 'new' ? null : option}
              onDone={() => setOption(null)}
            />
          )}
        </Stack>
      )}
    </Modal>
  );
}

/** Bundles with their price options per currency and plan reference (decision 126). */
export function BundlesTab() {
  const query = useAdminBundles();
  const [editing, setEditing] = useState<AdminBundle | null | 'new'>(null);
  if (!query.data) return <ListUnavailable error={query.error} />;
  return (
    <>
      <CatalogueList
        caption="Bundles"
        rows={query.data.items}
        columns={COLUMNS}
        render={cell}
        rowKey={(r) => r.bundle_id}
        csvPrefix="bundles"
        initialSort={{ key: 'id', desc: false }}
        toolbar={<Button onClick={() => setEditing('new')}>Add bundle</Button>}
        actions={(r) => (
          <Button size="xs" variant="light" onClick={() => setEditing(r)} aria-label={`Edit ${r.name}`}>
            Edit
          </Button>
        )}
      />
      {editing !== null && (
        <BundleDialog
          key={editing === 'new' ? 'new' : editing.bundle_id}
          bundle={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </>
  );
}
