import { Box, Group, Pagination, Text } from '@mantine/core';

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
}

/** "Showing 26–50 of 130" and Mantine's pagination, with every control named. */
export function ListPagination({
  label,
  total,
  pageSize,
  page,
  onChange,
  hideSinglePage = false,
}: ListPaginationProps) {
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
