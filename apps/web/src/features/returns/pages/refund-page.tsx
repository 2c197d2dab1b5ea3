import { Alert, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { DetailPane, ListError, ListPagination, useListState } from '../../../components/list';
import {
  getReturnListQueryOptions,
  NO_RETURN_FILTERS,
  returnIdOf,
  RETURNS_PAGE_SIZE,
  type ReturnListParams,
} from '../api/returns';
import { ReturnPanel } from '../components/return-panel';
import { ReturnsTable } from '../components/returns-table';

/** No filters of its own (always the inspected returns); oldest first unless the address sorts otherwise. */
const LIST_OPTIONS = { defaults: {}, defaultSort: 'created_at' } as const;

/**
 * #/refund (decision 122): the returns waiting for their refund (inspected), oldest first; one opens beside the list
 * with its money — terminals value − restocking fee = credit to the invoice, and what goes back to the card or by
 * check. Sort, page and the open return are in the address (`#/refund?id=7`).
 */
export default function RefundPage() {
  const list = useListState<Record<never, string>>(LIST_OPTIONS);
  const { page, sort } = list;
  const openId = returnIdOf(list.selected);
  const params: ReturnListParams = { ...NO_RETURN_FILTERS, status: 'inspected', page, sort };
  const returns = useQuery(getReturnListQueryOptions(params));
  const items = returns.data?.items ?? [];
  const total = returns.data?.total ?? 0;
  const capped = returns.data?.total_capped ?? false;
  const close = () => list.select(null);

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Refunds
      </Title>
      <Text size="sm">
        Inspected returns wait here. The refund credits the hardware invoice with the terminals&apos; price less the
        restocking fee; what the merchant had paid beyond what is still owed goes back to the card or by check.
      </Text>
      {list.selected !== null && openId === null && (
        <Alert color="red" title="Not a return" withCloseButton closeButtonLabel="Dismiss" onClose={close}>
          This address does not name a return. Open the return from the list.
        </Alert>
      )}
      <ListError error={returns.error} />
      <ReturnsTable
        caption="Returns waiting for a refund"
        items={items}
        total={total}
        capped={capped}
        pending={returns.isPending}
        sort={sort}
        onSort={list.setSort}
        hrefFor={list.hrefFor}
        openId={openId}
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
        onChange={list.setPage}
        hideSinglePage
      />
      {openId !== null && (
        <DetailPane label={`Return #${openId}`} onClose={close}>
          <ReturnPanel key={openId} id={openId} onClose={close} />
        </DetailPane>
      )}
    </Stack>
  );
}
