import { useCallback, useMemo, useState } from 'react';
import { useLocation, useSearchParams } from 'react-router';

/** A list's filters: text, a choice (a string) or a switch (a boolean) — an interface of such fields will do. */
export type FilterValues<F = Record<string, string | boolean>> = { readonly [K in keyof F]: string | boolean };

export interface ListStateOptions<F extends FilterValues<F>> {
  /** The filters when the address names none (e.g. the role's own queue). */
  readonly defaults: F;
  /** The address key of a filter when it is not the filter's own name (`salesRep` → `sales_rep`). */
  readonly keys?: Partial<Record<keyof F, string>>;
  /** The sort when the address names none (null: the server's order). */
  readonly defaultSort?: string | null;
  /** The address key of the open row (default `id`: `#/view-invoices?status=open&id=123`). */
  readonly selectedKey?: string;
  /** The draft shown for applied filters (e.g. cents in the address, dollars in the field). */
  readonly toDraft?: (applied: F) => F;
  /**
   * The address keys of a list inside the open row (its page and sort, see useNestedListState): dropped whenever
   * this list's view changes, so a drill-down opened on another figure starts on its first page.
   */
  readonly nestedKeys?: readonly string[];
}

export interface ListState<F extends FilterValues<F>> {
  /** What the list shows: the address's filters. */
  readonly applied: F;
  /** What the filter bar holds until Apply. */
  readonly draft: F;
  readonly setDraft: (update: (draft: F) => F) => void;
  /** A field's onChange: `set('status')(value)`. */
  readonly set: <K extends keyof F>(key: K) => (value: F[K]) => void;
  /** Shows these filters (the draft by default) from page 1, as a new history entry. */
  readonly apply: (filters?: F) => void;
  /** Back to the defaults. */
  readonly clear: () => void;
  /** The sort in the address, else the default. */
  readonly sort: string | null;
  readonly setSort: (sort: string) => void;
  /** 1-based. */
  readonly page: number;
  readonly setPage: (page: number) => void;
  /** The open row's id (as text), or null. */
  readonly selected: string | null;
  /** Opens a row (null closes it), keeping filters, sort and page. */
  readonly select: (id: string | number | null) => void;
  /** The address of this view with a row open — for a real link (⌘-click opens it in a tab). */
  readonly hrefFor: (id: string | number) => string;
}

/** How a switch filter is written in the address: `overdue=1`. */
const SWITCH_ON = '1';
const SWITCH_OFF = '0';
const SORT = 'sort';
const PAGE = 'page';

function keyOf<F extends FilterValues<F>>(options: ListStateOptions<F>, name: string): string {
  return options.keys?.[name as keyof F] ?? name;
}

/** The filters the address names; a filter it does not name has its default. */
export function readFilters<F extends FilterValues<F>>(params: URLSearchParams, options: ListStateOptions<F>): F {
  const out: Record<string, string | boolean> = {};
  const defaults = options.defaults as Record<string, string | boolean>;
  for (const name of Object.keys(defaults)) {
    const fallback = defaults[name] as string | boolean;
    const raw = params.get(keyOf(options, name));
    if (raw === null) out[name] = fallback;
    else out[name] = typeof fallback === 'boolean' ? raw === SWITCH_ON || raw === 'true' : raw;
  }
  return out as F;
}

/**
 * The address of a list view: the filters that differ from their defaults (an emptied default is kept as `key=`,
 * so "any status" stays apart from the role's queue), the sort, the page after the first and the open row. Keys
 * the list does not own stay as they are.
 */
export function writeListParams<F extends FilterValues<F>>(
  current: URLSearchParams,
  options: ListStateOptions<F>,
  state: { filters: F; sort: string | null; page: number; selected: string | null },
): URLSearchParams {
  const next = new URLSearchParams(current);
  const selectedKey = options.selectedKey ?? 'id';
  const defaults = options.defaults as Record<string, string | boolean>;
  const filters = state.filters as Record<string, string | boolean>;
  for (const name of Object.keys(defaults)) next.delete(keyOf(options, name));
  next.delete(SORT);
  next.delete(PAGE);
  next.delete(selectedKey);
  for (const key of options.nestedKeys ?? []) next.delete(key);
  for (const name of Object.keys(defaults)) {
    const value = filters[name];
    if (value === undefined || value === defaults[name]) continue;
    next.set(
      keyOf(options, name),
      typeof value === 'boolean' ? (value ? SWITCH_ON : SWITCH_OFF) : String(value).trim(),
    );
  }
  if (state.sort && state.sort !== (options.defaultSort ?? null)) next.set(SORT, state.sort);
  if (state.page > 1) next.set(PAGE, String(state.page));
  if (state.selected !== null) next.set(selectedKey, state.selected);
  return next;
}

/** 'page=3' → 3; anything else → 1. */
function pageOf(raw: string | null): number {
  const n = raw !== null && /^\d{1,6}$/.test(raw) ? Number(raw) : 1;
  return n >= 1 ? n : 1;
}

/**
 * A list screen's state, kept in the address (issue 30): filters, sort, page and the open row. Back and forward
 * walk through what the user did, a reload or a copied address opens the same view, and the filter bar's draft
 * follows the address whenever it changes (Back after Apply shows the earlier filters in the fields too).
 */
export function useListState<F extends FilterValues<F>>(options: ListStateOptions<F>): ListState<F> {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const search = params.toString();
  // Parsed once per address; the options object is the page's constant.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const applied = useMemo(() => readFilters(params, options), [search]);
  const sort = params.get(SORT) ?? options.defaultSort ?? null;
  const page = pageOf(params.get(PAGE));
  const selected = params.get(options.selectedKey ?? 'id');

  const appliedKey = JSON.stringify(applied);
  const [draftState, setDraftState] = useState(() => ({
    key: appliedKey,
    draft: options.toDraft ? options.toDraft(applied) : applied,
  }));
  let draft = draftState.draft;
  if (draftState.key !== appliedKey) {
    draft = options.toDraft ? options.toDraft(applied) : applied;
    setDraftState({ key: appliedKey, draft });
  }

  const go = useCallback(
    (state: { filters: F; sort: string | null; page: number; selected: string | null }) =>
      setParams((current) => writeListParams(current, options, state)),
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [setParams],
  );
  const setDraft = useCallback(
    (update: (d: F) => F) => setDraftState((s) => ({ key: s.key, draft: update(s.draft) })),
    [],
  );

  return {
    applied,
    draft,
    setDraft,
    set: (key) => (value) => setDraft((d) => ({ ...d, [key]: value })),
    apply: (filters) => go({ filters: filters ?? draft, sort, page: 1, selected: null }),
    clear: () => {
      setDraftState({ key: '', draft: options.defaults });
      go({ filters: options.defaults, sort, page: 1, selected: null });
    },
    sort,
    setSort: (next) => go({ filters: applied, sort: next, page: 1, selected }),
    page,
    setPage: (next) => go({ filters: applied, sort, page: next, selected }),
    selected,
    select: (id) => go({ filters: applied, sort, page, selected: id === null ? null : String(id) }),
    hrefFor: (id) => {
      const next = writeListParams(params, options, { filters: applied, sort, page, selected: String(id) });
      return `${location.pathname}?${next.toString()}`;
    },
  };
}

/**
 * The sort and page of a list inside another list's open row (a report's drill-down), in the address under keys of
 * its own (`drill_page`, `drill_sort`), so Back, reload and a copied link show the same page of it. The outer list
 * names the same keys in its `nestedKeys`, which drops them when the outer view changes.
 */
export function useNestedListState(options: {
  readonly pageKey: string;
  readonly sortKey: string;
  readonly defaultSort?: string | null;
}): Pick<ListState<Record<string, string>>, 'sort' | 'setSort' | 'page' | 'setPage'> {
  const [params, setParams] = useSearchParams();
  const sort = params.get(options.sortKey) ?? options.defaultSort ?? null;
  const page = pageOf(params.get(options.pageKey));
  const write = (next: { sort: string | null; page: number }) =>
    setParams((current) => {
      const out = new URLSearchParams(current);
      out.delete(options.sortKey);
      out.delete(options.pageKey);
      if (next.sort && next.sort !== (options.defaultSort ?? null)) out.set(options.sortKey, next.sort);
      if (next.page > 1) out.set(options.pageKey, String(next.page));
      return out;
    });
  return {
    sort,
    setSort: (next) => write({ sort: next, page: 1 }),
    page,
    setPage: (next) => write({ sort, page: next }),
  };
}
