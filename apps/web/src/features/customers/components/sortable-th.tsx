import { Table, UnstyledButton } from '@mantine/core';
import type { ReactNode } from 'react';
import type { SortState } from '../lib/url-state';

export interface SortableThProps {
  /** The server's sort key for this column. */
  readonly column: string;
  readonly sort: SortState | null;
  readonly onSort: (next: SortState) => void;
  readonly children: ReactNode;
}

/**
 * A column header that sorts (server side): a button named by the column's label, `aria-sort` on the header.
 * The first click sorts ascending, the next one flips the direction.
 */
export function SortableTh({ column, sort, onSort, children }: SortableThProps) {
  const active = sort?.column === column;
  const direction = active ? sort.direction : null;
  const ariaSort = direction === 'asc' ? 'ascending' : direction === 'desc' ? 'descending' : 'none';
  const next: SortState = { column, direction: direction === 'asc' ? 'desc' : 'asc' };
  return (
    <Table.Th scope="col" aria-sort={ariaSort}>
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
