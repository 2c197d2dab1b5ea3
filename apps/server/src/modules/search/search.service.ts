import {
  GLOBAL_SEARCH_LIMIT,
  orderStatusLabel,
  searchKindsFor,
  type CustomerSearchHit,
  type GlobalSearchQuery,
  type GlobalSearchResult,
  type GlobalSearchTerms,
  type OrderSearchHit,
  type SearchKind,
  type StoreSearchHit,
  type TerminalSearchHit,
} from '@pos/domain';
import type { ServiceCtx } from '../../context';
import type { SessionContext } from '../../http/session';
import { visibleCustomersSqlText, visibleOrdersSqlText, visibleStoresSqlText } from '../../access';
import { escapeLike, searchTextPattern } from '../../lib/sql-like';

/** One kind's query and its bound parameters (every value the user typed is a parameter). */
interface KindSql {
  text: string;
  params: unknown[];
}

/** Collects bound parameters: `p(value)` returns its placeholder. */
function binder() {
  const params: unknown[] = [];
  return {
    params,
    p(value: unknown) {
      params.push(value);
      return `$${params.length}`;
    },
  };
}

const startsWith = (text: string) => `${escapeLike(text)}%`;

/**
 * How many text matches of a kind are read before ranking (decision 111): a frequent text ("mar") matches
 * hundreds of thousands of rows; the best GLOBAL_SEARCH_LIMIT + 1 are ranked among the first this many found
 * (and every exact id / federal tax id / legal-name match, found through their own indexes).
 */
export const GLOBAL_SEARCH_CANDIDATES = 200;

/*
 * Every query fetches GLOBAL_SEARCH_LIMIT + 1 rows of its kind, best first: exact matches (an id, the whole
 * name), then names starting with the text, then by name. Candidates are collected by id first — each arm on its
 * own index: the primary key, the unique federal tax id, the legal-name index for the whole name, and at most
 * GLOBAL_SEARCH_CANDIDATES text matches through the generated search_text's trigram index (decision 111) — then
 * their rows are read by primary key and ranked. Terminal and order arms are equalities on unique indexes.
 */

function customersSql(t: GlobalSearchTerms, session: SessionContext): KindSql | null {
  const { p, params } = binder();
  const arms: string[] = [];
  const exact: string[] = [];
  if (t.customerId !== null) {
    const id = p(t.customerId);
    arms.push(`select id from customers where id = ${id}`);
    exact.push(`c.id = ${id}`);
  }
  if (t.federalTaxId !== null) {
    // US EINs are stored as NN-NNNNNNN, Canadian business numbers as 9 digits: match either form (decision 050).
    const taxIds = `(${p(t.federalTaxId)}, ${p(t.federalTaxId.replace('-', ''))})`;
    arms.push(`select id from customers where federal_tax_id in ${taxIds}`);
    exact.push(`c.federal_tax_id in ${taxIds}`);
  }
  const order: string[] = [];
  if (t.text !== null) {
    const whole = p(t.text);
    arms.push(
      `(select id from customers where search_text like ${p(searchTextPattern(t.text))} limit ${GLOBAL_SEARCH_CANDIDATES})`,
      `select id from customers where lower(legal_name) = lower(${whole})`,
    );
    exact.push(`lower(c.legal_name) = lower(${whole})`);
    order.push(`(c.legal_name ilike ${p(startsWith(t.text))}) desc`);
  }
  if (arms.length === 0) return null;
  // An agent-scoped session finds its own merchants only (decision 140).
  const visible = visibleCustomersSqlText(session, 'c.id', p);
  params.push(GLOBAL_SEARCH_LIMIT + 1);
  return {
    text: `with candidates as (${arms.join(' union ')})
           select c.id as customer_id, c.legal_name, c.federal_tax_id, c.country, c.status
           from candidates k cross join lateral (select * from customers c where c.id = k.id offset 0) c
           ${visible ? `where ${visible}` : ''}
           order by ${[`(${exact.join(' or ')}) desc`, ...order, 'lower(c.legal_name)', 'c.id'].join(', ')}
           limit $${params.length}`,
    params,
  };
}

function storesSql(t: GlobalSearchTerms, session: SessionContext): KindSql | null {
  const { p, params } = binder();
  const arms: string[] = [];
  const exact: string[] = [];
  if (t.storeId !== null) {
    const id = p(t.storeId);
    arms.push(`select id from stores where id = ${id}`);
    exact.push(`s.id = ${id}`);
  }
  const order: string[] = [];
  if (t.text !== null) {
    arms.push(
      `(select id from stores where search_text like ${p(searchTextPattern(t.text))} limit ${GLOBAL_SEARCH_CANDIDATES})`,
    );
    const whole = p(t.text);
    exact.push(
      `lower(s.store_name) = lower(${whole})`,
      `lower(s.doing_business_as) = lower(${whole})`,
      `lower(s.br_acct) = lower(${whole})`,
    );
    const start = p(startsWith(t.text));
    order.push(`(s.store_name ilike ${start} or s.doing_business_as ilike ${start}) desc`);
  }
  if (arms.length === 0) return null;
  const visible = visibleStoresSqlText(session, 's.id', p);
  params.push(GLOBAL_SEARCH_LIMIT + 1);
  return {
    text: `with candidates as (${arms.join(' union ')})
           select s.id as store_id, s.customer_id, s.store_name, s.doing_business_as, s.br_acct as bracct,
                  c.legal_name, s.store_address->>'city' as city, s.state, s.status
           from candidates k
           cross join lateral (select * from stores s where s.id = k.id offset 0) s
           cross join lateral (select * from customers c where c.id = s.customer_id offset 0) c
           ${visible ? `where ${visible}` : ''}
           order by ${[`(${exact.join(' or ')}) desc`, ...order, 'lower(s.store_name)', 's.id'].join(', ')}
           limit $${params.length}`,
    params,
  };
}

/** The text as typed and upper-cased (serial numbers and unified order ids are stored upper-case), bound. */
function typedForms(p: (value: unknown) => string, text: string): string {
  return [...new Set([text, text.toUpperCase()])].map(p).join(', ');
}

function terminalsSql(t: GlobalSearchTerms, session: SessionContext): KindSql {
  const { p, params } = binder();
  const visible = visibleStoresSqlText(session, 't.store_id', p);
  const where = `(t.elmer_id = ${p(t.exact)} or t.serial_number in (${typedForms(p, t.exact)}))${visible ? ` and ${visible}` : ''}`;
  params.push(GLOBAL_SEARCH_LIMIT + 1);
  return {
    text: `select t.id as terminal_id, t.elmer_id, t.serial_number, t.status, t.store_id, t.customer_id, s.store_name
           from terminals t join stores s on s.id = t.store_id
           where ${where}
           order by t.elmer_id
           limit $${params.length}`,
    params,
  };
}

function ordersSql(t: GlobalSearchTerms, session: SessionContext): KindSql {
  const { p, params } = binder();
  const arms = [`o.unified_order_id in (${typedForms(p, t.exact)})`];
  if (t.orderId !== null) arms.push(`o.id = ${p(t.orderId)}`);
  // The one order-access rule (decision 102): an agent-scoped session finds its agent's orders only.
  const visible = visibleOrdersSqlText(session, 'o', p);
  const scope = visible ? `and ${visible}` : '';
  params.push(GLOBAL_SEARCH_LIMIT + 1);
  return {
    text: `select o.id as order_id, o.unified_order_id, o.status, o.legal_name, o.dba_name
           from orders o
           where (${arms.join(' or ')}) ${scope}
           order by o.id desc
           limit $${params.length}`,
    params,
  };
}

/** Each kind's query for a text (null: the text cannot match that kind). Exported for the index-use test. */
export const KIND_SQL: Readonly<
  Record<SearchKind, (terms: GlobalSearchTerms, session: SessionContext) => KindSql | null>
> = {
  customer: customersSql,
  store: storesSql,
  terminal: terminalsSql,
  order: ordersSql,
};

/**
 * Share `limit` places among the kinds' lists, one place per kind in turn, so that every kind that matched shows
 * and no kind crowds the others out. Returns how many of each list to keep.
 */
export function shareLimit(lengths: readonly number[], limit: number): number[] {
  const kept = lengths.map(() => 0);
  let left = limit;
  while (left > 0) {
    const before = left;
    lengths.forEach((length, i) => {
      if (left > 0 && kept[i]! < length) {
        kept[i] = kept[i]! + 1;
        left -= 1;
      }
    });
    if (left === before) break;
  }
  return kept;
}

async function rows<T>(ctx: ServiceCtx, sql: KindSql | null): Promise<T[]> {
  return sql ? ctx.app.database.query<T>(sql.text, sql.params) : [];
}

/** GET /api/search/{token}?q=: customers, stores, terminals and orders matching one text, ≤ 20 in all. */
export async function globalSearch(ctx: ServiceCtx, { q, terms }: GlobalSearchQuery): Promise<GlobalSearchResult> {
  const { session } = ctx;
  const searched = searchKindsFor(session.privileges);
  const sqlOf = (kind: SearchKind) => (searched.includes(kind) ? KIND_SQL[kind](terms, session) : null);
  const [customers, stores, terminals, orderRows] = await Promise.all([
    rows<CustomerSearchHit>(ctx, sqlOf('customer')),
    rows<StoreSearchHit>(ctx, sqlOf('store')),
    rows<TerminalSearchHit>(ctx, sqlOf('terminal')),
    rows<Omit<OrderSearchHit, 'status_label'>>(ctx, sqlOf('order')),
  ]);
  const orders = orderRows.map((o) => ({ ...o, status_label: orderStatusLabel(o.status) ?? o.status }));

  const lists = [customers, stores, terminals, orders] as const;
  const kept = shareLimit(
    lists.map((l) => l.length),
    GLOBAL_SEARCH_LIMIT,
  );
  return {
    q,
    searched,
    customers: customers.slice(0, kept[0]),
    stores: stores.slice(0, kept[1]),
    terminals: terminals.slice(0, kept[2]),
    orders: orders.slice(0, kept[3]),
    more: lists.some((l, i) => l.length > kept[i]!),
  };
}
