import { Alert, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { ListPagination } from '../../../components/list/list-pagination';
import { describeError } from '../../../lib/error-message';
import {
  getReturnListQueryOptions,
  NO_RETURN_FILTERS,
  returnIdOf,
  RETURNS_PAGE_SIZE,
  type ReturnListParams,
} from '../api/returns';
import { ReturnPanel } from '../components/return-panel';
import { ReturnsTable } from '../components/returns-table';

/**
 * #/refund (decision 122): the returns waiting for their refund (inspected), oldest first; one opens with its money —
 * terminals value − restocking fee = credit to the invoice, and what goes back to the card or by check.
 */
export default function RefundPage() {
  const [page, setPage] = useState(1);
  const [sort, setSort] = useState<string | null>('created_at');
  const [searchParams, setSearchParams] = useSearchParams();
  const openId = returnIdOf(searchParams.get('id'));
  const params: ReturnListParams = { ...NO_RETURN_FILTERS, status: 'inspected', page, sort };
  const list = useQuery(getReturnListQueryOptions(params));
  const items = list.data?.items ?? [];
  const total = list.data?.total ?? 0;
  const capped = list.data?.total_capped ?? false;

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Refunds
      </Title>
      <Text size="sm">
        Inspected returns wait here. The refund credits the hardware invoice with the terminals&apos; price less the
        restocking fee; what the merchant had paid beyond what is still owed goes back to the card or by check.
      </Text>
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
      {list.isError && (
        <Alert color="red" title={describeError(list.error).title}>
          {describeError(list.error).message}
        </Alert>
      )}
      <ReturnsTable
        caption="Returns waiting for a refund"
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
        openLabel="Refund return"
        emptyText="No inspected return is waiting for a refund."
      />
      <ListPagination
        label="Refund pages"
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
