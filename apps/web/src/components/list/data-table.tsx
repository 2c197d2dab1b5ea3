import { Table, Text, type TableProps } from '@mantine/core';
import type { ReactNode } from 'react';

export interface DataTableProps extends Omit<TableProps, 'children' | 'captionSide'> {
  /** Names the table (its caption, shown above it). */
  readonly caption: ReactNode;
  /**
   * The column headers: a string becomes `<Table.Th scope="col">`; anything else (a keyed `Table.Th` with its
   * own props, a sortable header) is used as it is.
   */
  readonly columns: readonly ReactNode[];
  /** Below this width the table scrolls sideways. */
  readonly minWidth: number;
  /** How many rows `children` holds; with none, one row across all columns says `emptyText`. */
  readonly rowCount: number;
  readonly emptyText: ReactNode;
  /** The body rows (`Table.Tr`). */
  readonly children: ReactNode;
}

/**
 * A list as a table: caption on top, column headers, the rows or a dimmed line saying there are none, in a
 * container that scrolls on narrow screens. Striped, compact and small print unless the props say otherwise.
 */
export function DataTable({
  caption,
  columns,
  minWidth,
  rowCount,
  emptyText,
  children,
  ...tableProps
}: DataTableProps) {
  return (
    <Table.ScrollContainer minWidth={minWidth}>
      <Table striped verticalSpacing="xs" fz="sm" {...tableProps} captionSide="top">
        <Table.Caption>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {columns.map((column) =>
              typeof column === 'string' ? (
                <Table.Th key={column} scope="col">
                  {column}
                </Table.Th>
              ) : (
                column
              ),
            )}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rowCount === 0 && (
            <Table.Tr>
              <Table.Td colSpan={columns.length}>
                <Text c="dimmed">{emptyText}</Text>
              </Table.Td>
            </Table.Tr>
          )}
          {children}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}
