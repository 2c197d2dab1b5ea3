import { Badge, Table, Text, TextInput, UnstyledButton, Stack, Group } from '@mantine/core';
import {
  filterStores,
  LICENSE_STATUS_LABELS,
  licenseStatus,
  STORE_FILTER_MIN_CHARS,
  storeFilterApplies,
  type StoreRecord,
} from '@pos/domain';
import { useState } from 'react';
import { DataTable } from '../../../components/list/data-table';
import { formatCents, formatDate, todayIso } from '../../../lib/format';
import { StatusBadge } from './status-badge';

const COLUMNS = [
  'Store',
  'Store name',
  'DBA',
  'Bracct',
  'Sales rep',
  'Location',
  'Status',
  'Terminals',
  'Open balance',
  'License expires',
];

export interface StoresListProps {
  readonly stores: readonly StoreRecord[];
  readonly selectedId: number | null;
  readonly onSelect: (storeId: number) => void;
}

/** The filter matches the spec's store search record fields; the API's `bracct` etc. already carry those names. */
function searchRecord(store: StoreRecord) {
  return {
    bracct: store.bracct,
    sales_rep: store.sales_rep,
    store_name: store.store_name,
    doing_business_as: store.doing_business_as,
  };
}

/**
 * The customer's stores with the "Filter stores" box: from 3 characters it keeps stores whose bracct,
 * sales rep, store name or DBA contains the text (any case; the domain's `filterStores`). A store name
 * selects the store (its tabs show below).
 */
export function StoresList({ stores, selectedId, onSelect }: StoresListProps) {
  const [filter, setFilter] = useState('');
  const applies = storeFilterApplies(filter);
  const shown = filterStores(
    stores.map((s) => ({ ...searchRecord(s), store: s })),
    filter,
  ).map((r) => r.store);
  return (
    <Stack component="section" aria-labelledby="stores-title" gap="xs">
      <Group justify="space-between" align="flex-end">
        <Text component="h2" id="stores-title" fw={700} size="lg" m={0}>
          Stores ({stores.length})
        </Text>
        <TextInput
          label="Filter stores"
          type="search"
          description={`Bracct, sales rep, store name or DBA; from ${STORE_FILTER_MIN_CHARS} characters`}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
          w={320}
        />
      </Group>
      {applies && (
        <Text size="sm" c="dimmed" role="status">
          {shown.length} of {stores.length} stores match “{filter.trim()}”.
        </Text>
      )}
      <DataTable
        caption="Select a store by its name to see its terminals, plans, billing and more."
        columns={COLUMNS}
        minWidth={800}
        rowCount={shown.length}
        emptyText={stores.length === 0 ? 'This customer has no stores.' : 'No store matches the filter.'}
        striped={undefined}
        verticalSpacing={4}
        fz={undefined}
        highlightOnHover
      >
        {shown.map((s) => {
          const selected = s.store_id === selectedId;
          return (
            <Table.Tr key={s.store_id} bg={selected ? 'var(--mantine-color-blue-light)' : undefined}>
              <Table.Td>{s.store_id}</Table.Td>
              <Table.Td>
                <UnstyledButton
                  onClick={() => onSelect(s.store_id)}
                  aria-pressed={selected}
                  // On the selected row's light background, the light variant's text colour (4.5:1, app/theme.ts).
                  c={selected ? 'var(--mantine-color-blue-light-color)' : 'blue'}
                  fw={selected ? 700 : 500}
                  fz="sm"
                >
                  {s.store_name}
                </UnstyledButton>
              </Table.Td>
              <Table.Td>{s.doing_business_as}</Table.Td>
              <Table.Td>{s.bracct ?? '—'}</Table.Td>
              <Table.Td>{s.sales_rep ?? '—'}</Table.Td>
              <Table.Td>{[s.address.city, s.address.state, s.country].filter(Boolean).join(', ')}</Table.Td>
              <Table.Td>
                <StatusBadge status={s.status} />
              </Table.Td>
              <Table.Td>
                {s.active_terminals} active / {s.terminals}
              </Table.Td>
              <Table.Td>{formatCents(s.open_balance_cents, s.currency)}</Table.Td>
              <Table.Td>
                <LicenseCell storeStatus={s.status} expiresOn={s.license_expires_on} />
              </Table.Td>
            </Table.Tr>
          );
        })}
      </DataTable>
    </Stack>
  );
}

/** The license expiry, and past it the §9 grace period or "License lapsed" (domain licenseStatus; decision 113). */
function LicenseCell({ storeStatus, expiresOn }: { readonly storeStatus: string; readonly expiresOn: string | null }) {
  const { status, graceUntil } = licenseStatus({ storeStatus, expiresOn, today: todayIso() });
  return (
    <Group gap={6} wrap="nowrap">
      <Text fz="sm">{formatDate(expiresOn)}</Text>
      {status === 'expired' && (
        <Badge color="red" variant="light" title={`Lapsed after the grace period ended on ${formatDate(graceUntil)}`}>
          {LICENSE_STATUS_LABELS.expired}
        </Badge>
      )}
      {status === 'grace' && (
        <Badge color="orange" variant="light" title={`Terminals keep working until ${formatDate(graceUntil)}`}>
          {LICENSE_STATUS_LABELS.grace}
        </Badge>
      )}
    </Group>
  );
}
