import { Table, type TableTdProps } from '@mantine/core';
import type { ReactNode } from 'react';

/** Figures line up: right-aligned, tabular digits, never wrapped. */
const FIGURE_STYLE = { fontVariantNumeric: 'tabular-nums', whiteSpace: 'nowrap' } as const;

/** A cell of money or a count (issue 30): right-aligned with tabular figures, on one line. */
export function FigureCell({ children, ...props }: TableTdProps & { readonly children: ReactNode }) {
  return (
    <Table.Td ta="right" style={FIGURE_STYLE} {...props}>
      {children}
    </Table.Td>
  );
}

/** A header over figures: right-aligned like them. */
export function FigureHeader({ children }: { readonly children: ReactNode }) {
  return (
    <Table.Th scope="col" ta="right" style={{ whiteSpace: 'nowrap' }}>
      {children}
    </Table.Th>
  );
}

/** A cell that must not wrap (ids, dates, badges): it stays on one line; the table scrolls instead. */
export function NoWrapCell({ children, ...props }: TableTdProps & { readonly children: ReactNode }) {
  return (
    <Table.Td style={{ whiteSpace: 'nowrap' }} {...props}>
      {children}
    </Table.Td>
  );
}
