import type { ReactNode } from 'react';
import { SortHeader } from '../../../components/list';
import type { SortState } from '../lib/url-state';

export interface SortableThProps {
  /** The server's sort key for this column. */
  readonly column: string;
  readonly sort: SortState | null;
  readonly onSort: (next: SortState) => void;
  readonly children: ReactNode;
  readonly numeric?: boolean;
}

/** The kit's sort header (components/list) for the customer page's lists, whose sort is a { column, direction }. */
export function SortableTh({ column, sort, onSort, children, numeric }: SortableThProps) {
  const current = sort ? `${sort.direction === 'desc' ? '-' : ''}${sort.column}` : null;
  return (
    <SortHeader
      column={column}
      sort={current}
      numeric={numeric}
      onSort={(next) => onSort({ column: next.replace(/^-/, ''), direction: next.startsWith('-') ? 'desc' : 'asc' })}
    >
      {children}
    </SortHeader>
  );
}
