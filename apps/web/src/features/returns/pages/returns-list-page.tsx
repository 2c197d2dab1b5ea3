import { Alert, Button, Group, NativeSelect, Stack, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { RETURN_STATUS_LABELS, RETURN_STATUSES } from '@pos/domain';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { ListPagination } from '../../../components/list/list-pagination';
import { datedFileName, downloadFile } from '../../../lib/download';
import { describeError } from '../../../lib/error-message';
import {
  exportReturns,
  getReturnListQueryOptions,
  NO_RETURN_FILTERS,
  returnIdOf,
  RETURNS_PAGE_SIZE,
  type ReturnFilters,
  type ReturnListParams,
} from '../api/returns';
import { ReturnPanel } from '../components/return-panel';
import { ReturnsTable } from '../components/returns-table';

const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  ...RETURN_STATUSES.map((s) => ({ value: s, label: RETURN_STATUS_LABELS[s] })),
];
const DAYS_PATTERN = /^\d{0,4}$/;
const ID_PATTERN = /^\d{0,9}$/;

/**
 * #/viewreturns (decision 122): every return, filtered by status, age, customer and name, sorted and paged on the
 * server, CSV of all matches; a row opens the return with its steps (Mark received, Mark inspected, Refund, Reject).
 */
export default function ReturnsListPage() {
  const [draft, setDraft] = useState<ReturnFilters>(NO_RETURN_FILTERS);
  const [applied, setApplied] = useState<ReturnFilters>(NO_RETURN_FILTERS);
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<string | null>(null);
  const [errors, setErrors] = useState<Partial<Record<keyof ReturnFilters, string>>>({});
  const [searchParams, setSearchParams] = useSearchParams();
  const openId = returnIdOf(searchParams.get('id'));

  const params: ReturnListParams = { ...applied, page, sort };
  const list = useQuery(getReturnListQueryOptions(params));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const capped = list.data?.total_capped ?? false;

  const exportCsv = useMutation({
    mutationFn: () => exportReturns(params),
    meta: { silentError: true },
    onSuccess: (blob) => downloadFile(datedFileName('returns', 'csv'), blob),
    onError: (error) => {
      const { title, message } = describeError(error);
      notifications.show({ color: 'red', title, message: `${message} Try the export again.`, autoClose: 8000 });
    },
  });

  const set = (key: keyof ReturnFilters) => (value: string) => setDraft((d) => ({ ...d, [key]: value }));
  function apply(e: FormEvent) {
    e.preventDefault();
    const found: Partial<Record<keyof ReturnFilters, string>> = {};
    if (draft.q.trim() !== '' && draft.q.trim().length < 2) found.q = 'Type at least 2 characters.';
    if (!DAYS_PATTERN.test(draft.age.trim()) || draft.age.trim() === '0')
      found.age = 'Enter a number of days, 1 or more.';
    if (!ID_PATTERN.test(draft.customerId.trim())) found.customerId = 'Enter a customer id (digits).';
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setApplied(draft);
    setPage(1);
  }
  function clear() {
    setDraft(NO_RETURN_FILTERS);
    setApplied(NO_RETURN_FILTERS);
    setErrors({});
    setPage(1);
  }

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
      {openId !== null && (
        <ReturnPanel
          key={openId}
          id={openId}
          onClose={() =>
            setSearchParams((p) => {
              p.delete('id');
              return p;
            })
          }
        />
      )}
      <form onSubmit={apply} aria-label="Filter returns">
        <Group align="flex-start" gap="sm" wrap="wrap">
          <NativeSelect
            label="Status"
            data={STATUS_OPTIONS}
            value={draft.status}
            onChange={(e) => set('status')(e.currentTarget.value)}
            w={170}
          />
          <TextInput
            label="Requested within (days)"
            inputMode="numeric"
            value={draft.age}
            onChange={(e) => set('age')(e.currentTarget.value)}
            error={errors.age}
            w={180}
          />
          <TextInput
            label="Customer id"
            inputMode="numeric"
            value={draft.customerId}
            onChange={(e) => set('customerId')(e.currentTarget.value)}
            error={errors.customerId}
            w={140}
          />
          <TextInput
            label="Merchant or DBA"
            value={draft.q}
            onChange={(e) => set('q')(e.currentTarget.value)}
            error={errors.q}
            w={220}
          />
          <Group gap="xs" mt={24}>
            <Button type="submit">Apply</Button>
            <Button variant="subtle" onClick={clear}>
              Clear filters
            </Button>
          </Group>
        </Group>
      </form>
      <Group justify="flex-end">
        <Button
          variant="default"
          onClick={() => exportCsv.mutate()}
          loading={exportCsv.isPending}
          disabled={total === 0}
        >
          Export CSV
        </Button>
      </Group>
      {list.isError && (
        <Alert color="red" title={describeError(list.error).title}>
          {describeError(list.error).message}
        </Alert>
      )}
      <ReturnsTable
        caption="Returns"
        items={items}
        total={total}
        capped={capped}
        pending={list.isPending}
        sort={sort}
        onSort={(s) => {
          setSort(s);
          setPage(1);
        }}
        onOpen={(id) => setSearchParams({ id: String(id) })}
        openLabel="Open return"
        emptyText="No returns match. Change or clear the filters."
      />
      <ListPagination
        label="Return pages"
        total={total}
        totalCapped={capped}
        pageRows={items.length}
        pageSize={RETURNS_PAGE_SIZE}
        page={page}
        onChange={setPage}
        hideSinglePage
      />
    </Stack>
  );
}
