import { Table, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';

export interface SortHeaderProps {
  /** The server's sort key of this column; `-key` sorts it the other way. */
  readonly column: string;
  /** The list's sort ('total_cents', '-issued_on') or null. */
  readonly sort: string | null;
  readonly onSort: (sort: string) => void;
  readonly children: ReactNode;
  /** Money and counts: the header sits right, over its figures. */
  readonly numeric?: boolean;
  /** The first click sorts largest / newest first (reports); otherwise A→Z, oldest first. */
  readonly descFirst?: boolean;
}

/**
 * A column header that sorts the list (issue 30's list kit): a button naming the column with ▲ / ▼ / ↕, and
 * `aria-sort` on the header cell. Clicking the sorted column turns the order round.
 */
export function SortHeader({ column, sort, onSort, children, numeric = false, descFirst = false }: SortHeaderProps) {
  const direction = sort === column ? 'asc' : sort === `-${column}` ? 'desc' : null;
  const next = direction === 'asc' ? `-${column}` : direction === 'desc' ? column : descFirst ? `-${column}` : column;
  return (
    <Table.Th
      scope="col"
      ta={numeric ? 'right' : undefined}
      aria-sort={direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none'}
      style={{ whiteSpace: 'nowrap' }}
    >
      <UnstyledButton onClick={() => onSort(next)} fw={700} fz="sm">
        {children}
        <span aria-hidden="true">
          {'\u00a0'}
          {direction === 'asc' ? '▲' : direction === 'desc' ? '▼' : '↕'}
        </span>
      </UnstyledButton>
    </Table.Th>
  );
}
