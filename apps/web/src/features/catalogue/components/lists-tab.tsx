import { Badge, Button, Checkbox, Group, Modal, NumberInput, Select, Stack, TextInput } from '@mantine/core';
import {
  DOMAIN_DATA_TYPE_LABELS,
  DOMAIN_DATA_TYPES,
  type AdminDomainDataEntry,
  type DomainDataType,
} from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { useAdminDomainData, useSaveDomainData } from '../api/catalogue-admin';
import type { Column } from '../lib/table';
import { CatalogueList, ListUnavailable } from './catalogue-list';
import { useSave } from './use-save';

const COLUMNS: readonly Column<AdminDomainDataEntry>[] = [
  { key: 'position', label: 'Position', value: (r) => r.sort_order },
  { key: 'label', label: 'Label', value: (r) => r.label },
  { key: 'code', label: 'Code', value: (r) => r.code },
  { key: 'in_use', label: 'In use by', value: (r) => r.in_use },
  { key: 'active', label: 'Status', value: (r) => (r.active ? 'Active' : 'Inactive') },
];

function cell(row: AdminDomainDataEntry, key: string) {
  if (key === 'active')
    return <Badge color={row.active ? 'green' : 'gray'}>{row.active ? 'Active' : 'Inactive'}</Badge>;
  if (key === 'in_use') return row.in_use === 0 ? '—' : `${row.in_use} record${row.in_use === 1 ? '' : 's'}`;
  return String(COLUMNS.find((c) => c.key === key)!.value(row) ?? '—');
}

function EntryDialog({
  type,
  entry,
  onClose,
}: {
  readonly type: DomainDataType;
  readonly entry: AdminDomainDataEntry | null;
  onClose: () => void;
}) {
  const [code, setCode] = useState(entry?.code ?? '');
  const [label, setLabel] = useState(entry?.label ?? '');
  const [position, setPosition] = useState<number | string>(entry?.sort_order ?? '');
  const [active, setActive] = useState(entry?.active ?? true);
  const saving = useSaveDomainData();
  const { errors, save } = useSave();
  const sortOrder = typeof position === 'number' ? position : undefined;

  function submit(e: FormEvent) {
    e.preventDefault();
    save(
      saving,
      entry === null
        ? { id: null, body: { type, code, label, sort_order: sortOrder } }
        : {
            id: entry.id,
            body: { label, sort_order: sortOrder ?? entry.sort_order, active, version: entry.version },
          },
      `${label} saved.`,
      onClose,
    );
  }

  return (
    <Modal opened onClose={onClose} title={entry ? `Edit ${entry.label}` : `Add to ${DOMAIN_DATA_TYPE_LABELS[type]}`}>
      <form onSubmit={submit} aria-label={entry ? 'Edit list entry' : 'Add list entry'} noValidate>
        <Stack>
          <TextInput
            label="Code"
            description={
              entry ? 'A code never changes: records and rules name the entry by it.' : 'Letters, digits, - or _'
            }
            required
            disabled={entry !== null}
            value={code}
            onChange={(e) => setCode(e.currentTarget.value)}
            error={errors.code}
          />
          <TextInput
            label="Label"
            required
            value={label}
            onChange={(e) => setLabel(e.currentTarget.value)}
            error={errors.label}
          />
          <NumberInput
            label="Position"
            description={entry ? undefined : 'Empty: after the last one'}
            min={0}
            max={10000}
            allowDecimal={false}
            value={position}
            onChange={setPosition}
            error={errors.sort_order}
          />
          {entry && (
            <Checkbox
              label="Active (offered in the product)"
              checked={active}
              onChange={(e) => setActive(e.currentTarget.checked)}
              description={
                entry.in_use > 0 ? `Used by ${entry.in_use} record(s): it stays on them when inactive.` : undefined
              }
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={saving.isPending}>
              Save entry
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

/** The look-up lists (retire reasons, business types…): add, rename, reorder, deactivate — never delete. */
export function ListsTab() {
  const [type, setType] = useState<DomainDataType>('retire_reason');
  const query = useAdminDomainData(type);
  const [editing, setEditing] = useState<AdminDomainDataEntry | null | 'new'>(null);
  return (
    <Stack>
      <Select
        label="List"
        w={320}
        data={DOMAIN_DATA_TYPES.map((t) => ({ value: t, label: DOMAIN_DATA_TYPE_LABELS[t] }))}
        value={type}
        onChange={(v) => setType((v as DomainDataType | null) ?? 'retire_reason')}
        allowDeselect={false}
      />
      {query.data ? (
        <CatalogueList
          key={type}
          caption={DOMAIN_DATA_TYPE_LABELS[type]}
          rows={query.data.items}
          columns={COLUMNS}
          render={cell}
          rowKey={(r) => r.id}
          csvPrefix={type.replace(/_/g, '-')}
          initialSort={{ key: 'position', desc: false }}
          toolbar={<Button onClick={() => setEditing('new')}>Add entry</Button>}
          actions={(r) => (
            <Button size="xs" variant="light" onClick={() => setEditing(r)} aria-label={`Edit ${r.label}`}>
              Edit
            </Button>
          )}
        />
      ) : (
        <ListUnavailable error={query.error} />
      )}
      {editing !== null && (
        <EntryDialog
          key={editing === 'new' ? 'new' : editing.id}
          type={type}
          entry={editing === 'new' ? null : editing}
          onClose={() => setEditing(null)}
        />
      )}
    </Stack>
  );
}
