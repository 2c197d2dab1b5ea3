import { act, render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { readFilters, useListState, useNestedListState, writeListParams } from './use-list-state';

interface Filters {
  readonly status: string;
  readonly salesRep: string;
  readonly overdue: boolean;
}
const OPTIONS = {
  defaults: { status: 'queue', salesRep: '', overdue: false } as Filters,
  keys: { salesRep: 'sales_rep' },
};

describe('list state in the address (issue 30)', () => {
  it('writes only what differs from the defaults, keeps an emptied default and keys it does not own', () => {
    const params = writeListParams(new URLSearchParams('tab=2&page=4'), OPTIONS, {
      filters: { status: '', salesRep: ' Ann ', overdue: true },
      sort: '-total',
      page: 1,
      selected: '12',
    });
    expect(params.toString()).toBe('tab=2&status=&sales_rep=Ann&overdue=1&sort=-total&id=12');
    expect(readFilters(params, OPTIONS)).toEqual({ status: '', salesRep: 'Ann', overdue: true });
    expect(readFilters(new URLSearchParams(''), OPTIONS)).toEqual(OPTIONS.defaults);
  });

  it('apply, open a row, Back: the filters, the draft and the closed row come back', async () => {
    // The hook needs a router: a probe is the route's element.
    const seen: { current: ReturnType<typeof useListState<Filters>> | null } = { current: null };
    function Probe() {
      seen.current = useListState<Filters>(OPTIONS);
      return null;
    }
    const routed = createMemoryRouter([{ path: '/list', element: <Probe /> }], { initialEntries: ['/list'] });
    render(<RouterProvider router={routed} />);
    expect(seen.current?.applied.status).toBe('queue');

    act(() => seen.current!.set('status')('B'));
    expect(seen.current?.draft.status).toBe('B');
    expect(seen.current?.applied.status).toBe('queue');
    act(() => seen.current!.apply());
    expect(routed.state.location.search).toBe('?status=B');
    act(() => seen.current!.select(7));
    expect(routed.state.location.search).toBe('?status=B&id=7');
    expect(seen.current?.hrefFor(8)).toBe('/list?status=B&id=8');
    act(() => seen.current!.setPage(3));
    expect(seen.current?.page).toBe(3);

    await act(() => routed.navigate(-1));
    await act(() => routed.navigate(-1));
    expect(seen.current?.selected).toBeNull();
    expect(seen.current?.applied.status).toBe('B');
    await act(() => routed.navigate(-1));
    expect(seen.current?.applied.status).toBe('queue');
    expect(seen.current?.draft.status).toBe('queue');

    act(() => seen.current!.set('overdue')(true));
    act(() => seen.current!.clear());
    expect(seen.current?.draft).toEqual(OPTIONS.defaults);
  });

  it("a drill-down's own page and sort are in the address, and start again when the outer view changes", async () => {
    const NESTED = { ...OPTIONS, selectedKey: 'drill', nestedKeys: ['drill_page', 'drill_sort'] };
    const seen: {
      outer: ReturnType<typeof useListState<Filters>> | null;
      inner: ReturnType<typeof useNestedListState> | null;
    } = { outer: null, inner: null };
    function Probe() {
      seen.outer = useListState<Filters>(NESTED);
      seen.inner = useNestedListState({ pageKey: 'drill_page', sortKey: 'drill_sort' });
      return null;
    }
    const routed = createMemoryRouter([{ path: '/r', element: <Probe /> }], { initialEntries: ['/r?drill=a'] });
    render(<RouterProvider router={routed} />);
    act(() => seen.inner!.setSort('-total'));
    act(() => seen.inner!.setPage(2));
    expect(routed.state.location.search).toBe('?drill=a&drill_sort=-total&drill_page=2');
    expect([seen.inner?.sort, seen.inner?.page]).toEqual(['-total', 2]);
    // Back: the first page of the sorted drill-down.
    await act(() => routed.navigate(-1));
    expect([seen.inner?.sort, seen.inner?.page]).toEqual(['-total', 1]);
    await act(() => routed.navigate(1));
    // Another figure opened: its list starts on page 1 in the server's order.
    act(() => seen.outer!.select('b'));
    expect(routed.state.location.search).toBe('?drill=b');
    expect([seen.inner?.sort, seen.inner?.page]).toEqual([null, 1]);
  });
});
