import { Button, Group } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';

export interface FilterBarProps {
  /** Names the search landmark: 'Filter invoices'. */
  readonly label: string;
  /** Apply pressed (or Enter in a field): check the draft, then show it. */
  readonly onApply: () => void;
  readonly onClear: () => void;
  /** The filter fields; several `<Group>`s make several rows. */
  readonly children: ReactNode;
  /** Instead of "Apply". */
  readonly applyLabel?: string;
  /** Instead of "Clear filters", when the defaults have a name of their own ('My queue'). */
  readonly clearLabel?: string;
}

/**
 * The filter bar of every list (issue 30's list kit): labelled fields that make a draft, shown when Apply is
 * pressed (or Enter); "Clear filters" goes back to the list's defaults. A search landmark, so a screen reader can
 * jump to it.
 */
export function FilterBar({
  label,
  onApply,
  onClear,
  children,
  applyLabel = 'Apply',
  clearLabel = 'Clear filters',
}: FilterBarProps) {
  const submit = (e: FormEvent) => {
    e.preventDefault();
    onApply();
  };
  return (
    <form role="search" aria-label={label} onSubmit={submit}>
      <Group align="flex-start" gap="sm" wrap="wrap">
        {children}
        <Group gap="xs" mt={24} wrap="nowrap">
          <Button type="submit">{applyLabel}</Button>
          <Button variant="subtle" onClick={onClear}>
            {clearLabel}
          </Button>
        </Group>
      </Group>
    </form>
  );
}

/**
 * The filter frame of a short list that filters as the fields change (the Mailbox, the job monitor, a customer's
 * tabs): the same search landmark as FilterBar, without Apply — Enter does nothing more.
 */
export function LiveFilterBar({ label, children }: { readonly label: string; readonly children: ReactNode }) {
  return (
    <form role="search" aria-label={label} onSubmit={(e) => e.preventDefault()}>
      <Group align="flex-end" gap="sm" wrap="wrap">
        {children}
      </Group>
    </form>
  );
}
