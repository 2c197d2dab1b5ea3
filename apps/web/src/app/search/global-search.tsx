import { Button, Kbd, Text, VisuallyHidden } from '@mantine/core';
import { useDebouncedValue, useOs } from '@mantine/hooks';
import { createSpotlight, Spotlight, type SpotlightStore } from '@mantine/spotlight';
import {
  GLOBAL_SEARCH_LIMIT,
  GLOBAL_SEARCH_SHORT_MESSAGE,
  globalSearchTerms,
  type GlobalSearchResult,
  type SearchKind,
} from '@pos/domain';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useEffect, useState, type CSSProperties, type ReactNode } from 'react';
import { useNavigate } from 'react-router';
import { describeError } from '../../lib/error-message';
import { customerHitPath, orderHitPath, storeHitPath, terminalHitPath } from './record-links';
import { getGlobalSearchQueryOptions } from './search-api';

function SearchIcon() {
  return (
    <svg
      width="16"
      height="16"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      aria-hidden="true"
    >
      <circle cx="11" cy="11" r="7" />
      <path d="m20 20-3.5-3.5" />
    </svg>
  );
}

/** Typing settles this long before the box asks the server. */
const TYPING_PAUSE_MS = 200;

const KIND_WORDS: Readonly<Record<SearchKind, string>> = {
  customer: 'customers',
  store: 'stores',
  terminal: 'terminals',
  order: 'orders',
};

/** 'customers, stores, terminals and orders' for the kinds this user may search. */
function kindsText(kinds: readonly SearchKind[]): string {
  const words = kinds.map((k) => KIND_WORDS[k]);
  return words.length > 1 ? `${words.slice(0, -1).join(', ')} and ${words.at(-1)}` : (words[0] ?? '');
}

const join = (...parts: (string | number | null | undefined)[]) =>
  parts.filter((p) => p !== null && p !== undefined && p !== '').join(' · ');

interface ResultItem {
  readonly key: string;
  readonly label: string;
  readonly description: string;
  readonly path: string;
}

interface ResultGroup {
  readonly label: string;
  readonly items: readonly ResultItem[];
}

/** The answer's groups in the order they show, each result with what it says and where it opens. */
function resultGroups(result: GlobalSearchResult): ResultGroup[] {
  const groups: ResultGroup[] = [
    {
      label: 'Customers',
      items: result.customers.map((c) => ({
        key: `c${c.customer_id}`,
        label: c.legal_name,
        description: join(`Customer ${c.customer_id}`, c.federal_tax_id && `tax id ${c.federal_tax_id}`, c.country),
        path: customerHitPath(c),
      })),
    },
    {
      label: 'Stores',
      items: result.stores.map((s) => ({
        key: `s${s.store_id}`,
        label: s.store_name,
        description: join(
          `Store ${s.store_id}`,
          `DBA ${s.doing_business_as}`,
          s.bracct && `bracct ${s.bracct}`,
          s.legal_name,
        ),
        path: storeHitPath(s),
      })),
    },
    {
      label: 'Terminals',
      items: result.terminals.map((t) => ({
        key: `t${t.terminal_id}`,
        label: `Terminal ${t.elmer_id}`,
        description: join(`Serial ${t.serial_number}`, t.status, t.store_name),
        path: terminalHitPath(t),
      })),
    },
    {
      label: 'Orders',
      items: result.orders.map((o) => ({
        key: `o${o.order_id}`,
        label: o.unified_order_id,
        description: join(`Order ${o.order_id}`, o.status_label, o.legal_name, o.dba_name),
        path: orderHitPath(o),
      })),
    },
  ];
  return groups.filter((g) => g.items.length > 0);
}

/**
 * Mark the first result as the one Enter opens. Spotlight selects the first action when the query changes, which is
 * before the server's answer is on screen; this does the same once it is (Spotlight's own attribute and index).
 */
function selectFirstResult(store: SpotlightStore): void {
  const list = document.getElementById(store.getState().listId);
  if (!list) return;
  for (const el of list.querySelectorAll('[data-selected]')) el.removeAttribute('data-selected');
  const first = list.querySelector('[data-action]');
  first?.setAttribute('data-selected', 'true');
  store.updateState((state) => ({ ...state, selected: first ? 0 : -1 }));
}

export interface GlobalSearchProps {
  /** The kinds this user may search (never empty: the shell leaves the search out then). */
  readonly kinds: readonly SearchKind[];
}

/**
 * The global search (decision 106): a Search button in the header and ⌘K / Ctrl+K anywhere open one box that finds
 * customers, stores, terminals and orders (one server call per pause in typing), grouped by kind; the arrow keys
 * move through the results and Enter (or a click) opens one.
 */
export function GlobalSearch({ kinds }: GlobalSearchProps) {
  const [[store, spotlight]] = useState(createSpotlight);
  const navigate = useNavigate();
  const os = useOs();
  const [query, setQuery] = useState('');
  const [typed] = useDebouncedValue(query.trim(), TYPING_PAUSE_MS);
  const searchable = globalSearchTerms(typed) !== null;
  const search = useQuery({
    ...getGlobalSearchQueryOptions(typed),
    enabled: searchable,
    placeholderData: keepPreviousData,
  });
  const groups = searchable && search.data ? resultGroups(search.data) : [];
  const count = groups.reduce((n, g) => n + g.items.length, 0);

  useEffect(() => {
    if (search.data) selectFirstResult(store);
  }, [search.data, store]);

  const what = kindsText(kinds);
  const shortcut = os === 'macos' || os === 'ios' ? '⌘ K' : 'Ctrl K';

  let status: ReactNode;
  if (query.trim() === '') status = `Search ${what} by name, id, tax id, serial number or order id.`;
  else if (globalSearchTerms(query) === null) status = GLOBAL_SEARCH_SHORT_MESSAGE;
  else if (search.isError) status = describeError(search.error).message;
  else if (!searchable || search.isPending || typed !== query.trim()) status = 'Searching…';
  else if (count === 0) status = `Nothing found for “${typed}”.`;
  else if (search.data?.more) status = `The first ${GLOBAL_SEARCH_LIMIT} matches: type more to narrow them down.`;
  else status = `${count} ${count === 1 ? 'match' : 'matches'}.`;

  return (
    <>
      <Button
        variant="default"
        onClick={spotlight.open}
        aria-label="Search everywhere"
        aria-keyshortcuts="Control+K Meta+K"
        leftSection={<SearchIcon />}
        rightSection={
          <Kbd size="xs" visibleFrom="sm">
            {shortcut}
          </Kbd>
        }
      >
        <Text span inherit visibleFrom="sm">
          Search
        </Text>
      </Button>
      <Spotlight.Root
        store={store}
        query={query}
        onQueryChange={setQuery}
        shortcut="mod + K"
        tagsToIgnore={[]}
        scrollable
        maxHeight={460}
        attributes={{ content: { 'aria-label': 'Search everywhere' } }}
      >
        <Spotlight.Search aria-label={`Search ${what}`} placeholder={`Search ${what}…`} />
        <Text role="status" size="sm" c="dimmed" px="md" py="xs">
          {status}
        </Text>
        <Spotlight.ActionsList role="group" aria-label="Results">
          {groups.map((group) => (
            <Spotlight.ActionsGroup key={group.label} label={group.label} role="group" aria-label={group.label}>
              {group.items.map((item) => (
                <Spotlight.Action
                  key={item.key}
                  label={item.label}
                  description={item.description}
                  // Spotlight dims the selected result's description to 70 % white on blue (3.3:1): full white reads.
                  style={{ '--action-description-opacity': 1 } as CSSProperties}
                  onClick={() => void navigate(item.path)}
                />
              ))}
            </Spotlight.ActionsGroup>
          ))}
        </Spotlight.ActionsList>
        <VisuallyHidden>Use the arrow keys to choose a result and Enter to open it.</VisuallyHidden>
      </Spotlight.Root>
    </>
  );
}
