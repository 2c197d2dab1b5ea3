import { Box, Button, Group, Pagination, Text } from '@mantine/core';
import { formatCount } from '../../lib/format';

const CONTROL_LABELS = {
  first: 'First page',
  previous: 'Previous page',
  next: 'Next page',
  last: 'Last page',
} as const;

export interface ListPaginationProps {
  /** Names the navigation landmark, e.g. 'Message pages'. */
  readonly label: string;
  readonly total: number;
  readonly pageSize: number;
  /** 1-based. */
  readonly page: number;
  readonly onChange: (page: number) => void;
  /** No page controls when everything fits on one page (the count stays). */
  readonly hideSinglePage?: boolean;
  /**
   * The server stopped counting at `total` (a search's `total_capped`, decision 107): the count reads "1,000+", the
   * last page is not known, and "Next page" works until a page comes back with fewer than `pageSize` rows.
   */
  readonly totalCapped?: boolean;
  /** Rows on the current page (needed with `totalCapped`: a short page is the last one). */
  readonly pageRows?: number;
}

/** "1,000+" for a capped total, else the number ("1,000"). */
export function formatTotal(total: number, capped = false): string {
  return capped ? `${formatCount(total)}+` : formatCount(total);
}

/** "Showing 26–50 of 130" and Mantine's pagination, with every control named. */
export function ListPagination({
  label,
  total,
  pageSize,
  page,
  onChange,
  hideSinglePage = false,
  totalCapped = false,
  pageRows,
}: ListPaginationProps) {
  if (totalCapped)
    return (
      <OpenEndedPagination
        label={label}
        page={page}
        pageSize={pageSize}
        total={total}
        pageRows={pageRows ?? pageSize}
        onChange={onChange}
      />
    );
  const pages = Math.max(1, Math.ceil(total / pageSize));
  const first = total === 0 ? 0 : (page - 1) * pageSize + 1;
  const last = Math.min(total, page * pageSize);
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed">
        {total === 0 ? 'Nothing to show' : `Showing ${first}–${last} of ${total}`}
      </Text>
      {(pages > 1 || !hideSinglePage) && (
        <Box component="nav" aria-label={label}>
          <Pagination
            total={pages}
            value={Math.min(page, pages)}
            onChange={onChange}
            size="sm"
            withEdges
            getItemProps={(p) => ({ 'aria-label': `Page ${p}` })}
            getControlProps={(control) => ({ 'aria-label': CONTROL_LABELS[control] })}
          />
        </Box>
      )}
    </Group>
  );
}

/** Pages of a list whose end is not known: first / previous / "Page N" / next, and "Showing 51–100 of 1,000+". */
function OpenEndedPagination({
  label,
  page,
  pageSize,
  total,
  pageRows,
  onChange,
}: Pick<ListPaginationProps, 'label' | 'page' | 'pageSize' | 'total' | 'onChange'> & { pageRows: number }) {
  const first = (page - 1) * pageSize + 1;
  const last = first + pageRows - 1;
  return (
    <Group justify="space-between" gap="sm">
      <Text size="sm" c="dimmed">
        {pageRows === 0
          ? 'Nothing on this page'
          : `Showing ${formatCount(first)}–${formatCount(last)} of ${formatTotal(total, true)}`}
      </Text>
      <Box component="nav" aria-label={label}>
        <Group gap="xs">
          <Button size="compact-sm" variant="default" disabled={page <= 1} onClick={() => onChange(1)}>
            {CONTROL_LABELS.first}
          </Button>
          <Button size="compact-sm" variant="default" disabled={page <= 1} onClick={() => onChange(page - 1)}>
            {CONTROL_LABELS.previous}
          </Button>
          <Text size="sm" aria-current="page">
            Page {formatCount(page)}
          </Text>
          <Button size="compact-sm" variant="default" disabled={pageRows < pageSize} onClick={() => onChange(page + 1)}>
            {CONTROL_LABELS.next}
          </Button>
        </Group>
      </Box>
    </Group>
  );
}
