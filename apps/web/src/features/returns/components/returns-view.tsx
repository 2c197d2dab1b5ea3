import { Alert } from '@mantine/core';
import type { ReturnSearchResult } from '@pos/domain';
import type { UseQueryResult } from '@tanstack/react-query';
import { DetailPane, ListError, ListPagination, type ListState } from '../../../components/list';
import { returnIdOf, RETURNS_PAGE_SIZE } from '../api/returns';
import { ReturnPanel } from './return-panel';
import { ReturnsTable } from './returns-table';

/** What of a list's state the returns view uses (its filters are the page's). */
type ReturnsListState = Pick<
  ListState<Record<never, string>>,
  'sort' | 'setSort' | 'page' | 'setPage' | 'selected' | 'select' | 'hrefFor'
>;

/**
 * A page of returns with the open one beside it (#/viewreturns and #/refund): the table, its pages, and the return
 * named in the address (`?id=7`) in its panel — or, when the address names none, says so.
 */
export function ReturnsView(props: {
  readonly list: ReturnsListState;
  readonly returns: UseQueryResult<ReturnSearchResult>;
  readonly caption: string;
  readonly openLabel: string;
  readonly emptyText: string;
  /** Names the pagination: 'Return pages'. */
  readonly pagesLabel: string;
}) {
  const { list, returns } = props;
  const openId = returnIdOf(list.selected);
  const items = returns.data?.items ?? [];
  const total = returns.data?.total ?? 0;
  const capped = returns.data?.total_capped ?? false;
  const close = () => list.select(null);
  return (
    <>
      {list.selected !== null && openId === null && (
        <Alert color="red" title="Not a return" withCloseButton closeButtonLabel="Dismiss" onClose={close}>
          This address does not name a return. Open the return from the list.
        </Alert>
      )}
      <ListError error={returns.error} />
      <ReturnsTable
        caption={props.caption}
        items={items}
        total={total}
        capped={capped}
        pending={returns.isPending}
        sort={list.sort}
        onSort={list.setSort}
        hrefFor={list.hrefFor}
        openId={openId}
        openLabel={props.openLabel}
        emptyText={props.emptyText}
      />
      <ListPagination
        label={props.pagesLabel}
        total={total}
        totalCapped={capped}
        pageRows={items.length}
        pageSize={RETURNS_PAGE_SIZE}
        page={list.page}
        onChange={list.setPage}
        hideSinglePage
      />
      {openId !== null && (
        <DetailPane label={`Return #${openId}`} onClose={close}>
          <ReturnPanel key={openId} id={openId} onClose={close} />
        </DetailPane>
      )}
    </>
  );
}
