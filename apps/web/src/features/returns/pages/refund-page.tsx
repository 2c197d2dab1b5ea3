import { Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useListState } from '../../../components/list';
import { getReturnListQueryOptions, NO_RETURN_FILTERS, type ReturnListParams } from '../api/returns';
import { ReturnsView } from '../components/returns-view';

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
  const params: ReturnListParams = { ...NO_RETURN_FILTERS, status: 'inspected', page, sort };
  const returns = useQuery(getReturnListQueryOptions(params));

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Refunds
      </Title>
      <Text size="sm">
        Inspected returns wait here. The refund credits the hardware invoice with the terminals&apos; price less the
        restocking fee; what the merchant had paid beyond what is still owed goes back to the card or by check.
      </Text>
      <ReturnsView
        list={list}
        returns={returns}
        caption="Returns waiting for a refund"
        openLabel="Refund return"
        emptyText="No inspected return is waiting for a refund."
        pagesLabel="Refund pages"
      />
    </Stack>
  );
}
