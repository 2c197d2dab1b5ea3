import { Alert, Button, Group, Stack, Table } from '@mantine/core';
import { useState, type ReactNode } from 'react';
import { DataTable, FilterText, ListPagination, SortHeader } from '../../../components/list';
import { datedFileName } from '../../../lib/download';
import { describeError } from '../../../lib/error-message';
import { downloadCsv, PAGE_SIZE, toCsv, viewOf, type Column, type SortState } from '../lib/table';

export interface CatalogueListProps<T> {
  /** Names the table, its filter and its pages ('Billing items'). */
  readonly caption: string;
  readonly rows: readonly T[];
  readonly columns: readonly Column<T>[];
  /** How a cell shows (default: its value as text). */
  readonly render?: (row: T, key: string) => ReactNode;
  readonly rowKey: (row: T) => string | number;
  /** The actions of one row (an Edit button…). */
  readonly actions: (row: T) => ReactNode;
  readonly csvPrefix: string;
  readonly initialSort: SortState;
  /** Buttons above the list (Add…). */
  readonly toolbar?: ReactNode;
  readonly minWidth?: number;
}

/** A catalogue list: filter, sortable headers, paging and CSV of every matching row (decision 126). */
export function CatalogueList<T>({
  caption,
  rows,
  columns,
  render,
  rowKey,
  actions,
  csvPrefix,
  initialSort,
  toolbar,
  minWidth = 720,
}: CatalogueListProps<T>) {
  const [filter, setFilter] = useState('');
  const [sort, setSort] = useState<SortState>(initialSort);
  const [page, setPage] = useState(1);
  const view = viewOf(rows, columns, { filter, sort, page });

  const header = (c: Column<T>) => (
    <SortHeader
      key={c.key}
      column={c.key}
      sort={`${sort.desc ? '-' : ''}${sort.key}`}
      onSort={(next) => {
        setSort({ key: next.replace(/^-/, ''), desc: next.startsWith('-') });
        setPage(1);
      }}
    >
      {c.label}
    </SortHeader>
  );

  return (
    <Stack gap="sm">
      <Group justify="space-between" align="flex-end">
        <FilterText
          label={`Filter ${caption.toLowerCase()}`}
          placeholder="Name, id, category…"
          value={filter}
          onChange={(text) => {
            setFilter(text);
            setPage(1);
          }}
          w={320}
        />
        <Group gap="xs">
          {toolbar}
          <Button
            variant="default"
            onClick={() => downloadCsv(datedFileName(csvPrefix, 'csv'), toCsv(columns, view.matching))}
          >
            Download CSV
          </Button>
        </Group>
      </Group>
      <DataTable
        caption={caption}
        columns={[...columns.map(header), 'Actions']}
        minWidth={minWidth}
        rowCount={view.page.length}
        emptyText={filter ? 'Nothing matches the filter.' : 'None yet.'}
      >
        {view.page.map((row) => (
          <Table.Tr key={rowKey(row)}>
            {columns.map((c) => (
              <Table.Td key={c.key}>{render ? render(row, c.key) : String(c.value(row) ?? '—')}</Table.Td>
            ))}
            <Table.Td>{actions(row)}</Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        label={`${caption} pages`}
        total={view.matching.length}
        pageSize={PAGE_SIZE}
        page={page}
        onChange={setPage}
        hideSinglePage
      />
    </Stack>
  );
}

/** While a list loads (the global spinner shows) or when it could not be read. */
export function ListUnavailable({ error }: { readonly error: unknown }) {
  if (!error) return null;
  return (
    <Alert color="red" title="The list could not be read">
      {describeError(error).message}
    </Alert>
  );
}
