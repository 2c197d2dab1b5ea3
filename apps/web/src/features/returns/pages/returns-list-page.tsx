import { Button, Group, Stack, Title } from '@mantine/core';
import { RETURN_STATUS_LABELS, RETURN_STATUSES } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import {
  bindFilter,
  ExportCsvButton,
  FilterBar,
  FilterId,
  FilterNumber,
  filterOptions,
  FilterSelect,
  FilterText,
  notAnId,
  notDays,
  textTooShort,
  useCheckedFilters,
  useListState,
} from '../../../components/list';
import { datedFileName, downloadFile } from '../../../lib/download';
import {
  exportReturns,
  getReturnListQueryOptions,
  NO_RETURN_FILTERS,
  type ReturnFilters,
  type ReturnListParams,
} from '../api/returns';
import { ReturnsView } from '../components/returns-view';

const STATUS_OPTIONS = filterOptions('Any status', RETURN_STATUSES, RETURN_STATUS_LABELS);

/** Newest first unless the address says otherwise; the open return is `?id=`. */
const LIST_OPTIONS = {
  defaults: NO_RETURN_FILTERS,
  keys: { customerId: 'customer_id' },
  defaultSort: '-created_at',
} as const;

/**
 * #/viewreturns (decision 122): every return, filtered by status, age, customer and name, sorted and paged on the
 * server, CSV of all matches; a row opens the return beside the list with its steps (Mark received, Mark inspected,
 * Refund, Reject). Filters, sort, page and the open return are in the address (issue 30:
 * `#/viewreturns?status=requested&id=7`).
 */
export default function ReturnsListPage() {
  const list = useListState<ReturnFilters>(LIST_OPTIONS);
  const { applied, page, sort } = list;
  const { errors, apply, clear } = useCheckedFilters(list, (d) => ({
    q: textTooShort(d.q, 2),
    age: notDays(d.age),
    customerId: notAnId(d.customerId, 'customer'),
  }));
  const field = bindFilter(list, errors);

  const params: ReturnListParams = { ...applied, page, sort: sort === LIST_OPTIONS.defaultSort ? null : sort };
  const returns = useQuery(getReturnListQueryOptions(params));
  const total = returns.data?.total ?? 0;

  return (
    <Stack gap="md">
      <Group justify="space-between">
        <Title order={1} size="h2">
          Returns
        </Title>
        <Button component={Link} to="/returns-refund" variant="light">
          Start a return
        </Button>
      </Group>
      <FilterBar label="Filter returns" onApply={apply} onClear={clear}>
        <FilterSelect label="Status" data={STATUS_OPTIONS} w={170} {...field('status')} />
        <FilterNumber label="Requested within (days)" w={180} {...field('age')} />
        <FilterId label="Customer id" w={140} {...field('customerId')} />
        <FilterText label="Merchant or DBA" {...field('q')} />
      </FilterBar>
      <ExportCsvButton
        run={async () => downloadFile(datedFileName('returns', 'csv'), await exportReturns(params))}
        disabled={total === 0}
      />
      <ReturnsView
        list={list}
        returns={returns}
        caption="Returns"
        openLabel="Open return"
        emptyText="No returns match. Change or clear the filters."
        pagesLabel="Return pages"
      />
    </Stack>
  );
}
