import { Button, Group, Stack, Text, Title } from '@mantine/core';
import { formatTotal, ListPagination } from '../../../components/list/list-pagination';
import {
  SEARCH_PAGE_SIZE,
  useCustomerSearch,
  useExportCustomerSearch,
  type CustomerSearchParams,
} from '../api/customers';
import { planSearch } from '../lib/search-kind';
import { formatSort, type SortState } from '../lib/url-state';
import { CustomerSearchResults, type CustomerLink } from './customer-search-results';

export interface CustomerSearchViewProps {
  readonly q: string;
  readonly page: number;
  readonly sort: SortState | null;
  readonly onPage: (page: number) => void;
  readonly onSort: (sort: SortState) => void;
  /** Where a result opens (default the customer page). */
  readonly linkTo?: CustomerLink;
}

/** The results of the searched text: what kind was searched, the table, pages and the CSV export. */
export function CustomerSearchView({ q, page, sort, onPage, onSort, linkTo }: CustomerSearchViewProps) {
  const plan = planSearch(q);
  const params: CustomerSearchParams | null =
    plan.state === 'ready' ? { kind: plan.kind, value: plan.value, page, sort: formatSort(sort) } : null;
  const search = useCustomerSearch(params);
  const exportCsv = useExportCustomerSearch();

  if (plan.state === 'empty') return null;
  if (plan.state === 'too_short') {
    return <Text c="dimmed">{plan.message}</Text>;
  }
  const total = search.data?.total ?? 0;
  const capped = search.data?.total_capped ?? false;
  return (
    <Stack component="section" aria-labelledby="customer-results-title" gap="sm" aria-busy={search.isFetching}>
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3" id="customer-results-title">
            Results
          </Title>
          <Text role="status" size="sm" c="dimmed">
            {plan.description}
            {search.data ? ` — ${formatTotal(total, capped)} ${total === 1 && !capped ? 'match' : 'matches'}` : ''}
          </Text>
        </div>
        <Button
          variant="default"
          onClick={() => params && exportCsv.mutate(params)}
          loading={exportCsv.isPending}
          disabled={total === 0}
        >
          Export CSV
        </Button>
      </Group>
      {exportCsv.isSuccess && (
        <Text role="status" size="sm">
          Exported {exportCsv.data.rows} {exportCsv.data.rows === 1 ? 'row' : 'rows'} to {exportCsv.data.fileName}.
        </Text>
      )}
      {capped && (
        <Text role="note" size="sm">
          More than {formatTotal(total)} matches: the list holds the first {formatTotal(total)} found. Type more of the
          name, or search by customer or store id, to find the one you want; Export CSV downloads every match.
        </Text>
      )}
      {search.data ? (
        <CustomerSearchResults items={search.data.items} sort={sort} onSort={onSort} q={q} linkTo={linkTo} />
      ) : (
        <Text c="dimmed">{search.isError ? 'The search failed. Check the text and try again.' : 'Searching…'}</Text>
      )}
      <ListPagination
        hideSinglePage
        label="Result pages"
        total={total}
        pageSize={SEARCH_PAGE_SIZE}
        page={page}
        onChange={onPage}
      />
    </Stack>
  );
}
