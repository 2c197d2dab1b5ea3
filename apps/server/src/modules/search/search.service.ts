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
import { visibleOrdersSqlText } from '../orders';
import { escapeLike } from '../../lib/sql-like';

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

const contains = (text: string) => `%${escapeLike(text)}%`;
const startsWith = (text: string) => `${escapeLike(text)}%`;

/*
 * Every query fetches GLOBAL_SEARCH_LIMIT + 1 rows of its kind, best first: exact matches (an id, the whole
 * name), then names starting with the text, then by name. Text arms are `ilike '%…%'` on columns with a pg_trgm
 * GIN index (0003_data_model: customers legal_name / federal_tax_id, stores store_name / doing_business_as /
 * br_acct); ids, terminal ids, serial numbers and unified order ids are equalities on their primary key or
 * unique index.
 */

function customersSql(t: GlobalSearchTerms): KindSql | null {
  const { p, params } = binder();
  const arms: string[] = [];
  const exact: string[] = [];
  if (t.customerId !== null) {
    const id = p(t.customerId);
    arms.push(`c.id = ${id}`);
    exact.push(`c.id = ${id}`);
  }
  if (t.federalTaxId !== null) {
    // US EINs are stored as NN-NNNNNNN, Canadian business numbers as 9 digits: match either form (decision 050).
    const taxIds = `(${p(t.federalTaxId)}, ${p(t.federalTaxId.replace('-', ''))})`;
    arms.push(`c.federal_tax_id in ${taxIds}`);
    exact.push(`c.federal_tax_id in ${taxIds}`);
  }
  const order: string[] = [];
  if (t.text !== null) {
    const like = p(contains(t.text));
    arms.push(`c.legal_name ilike ${like}`, `c.federal_tax_id ilike ${like}`);
    exact.push(`lower(c.legal_name) = lower(${p(t.text)})`);
    order.push(`(c.legal_name ilike ${p(startsWith(t.text))}) desc`);
  }
  if (arms.length === 0) return null;
  params.push(GLOBAL_SEARCH_LIMIT + 1);
  return {
    text: `select c.id as customer_id, c.legal_name, c.federal_tax_id, c.country, c.status
           from customers c
           where ${arms.join(' or ')}
           order by ${[`(${exact.join(' or ')}) desc`, ...order, 'lower(c.legal_name)', 'c.id'].join(', ')}
           limit $${params.length}`,
    params,
  };
}

function storesSql(t: GlobalSearchTerms): KindSql | null {
  const { p, params } = binder();
  const arms: string[] = [];
  const exact: string[] = [];
  if (t.storeId !== null) {
    const id = p(t.storeId);
    arms.push(`s.id = ${id}`);
    exact.push(`s.id = ${id}`);
  }
  const order: string[] = [];
  if (t.text !== null) {
    const like = p(contains(t.text));
    arms.push(`s.store_name ilike ${like}`, `s.doing_business_as ilike ${like}`, `s.br_acct ilike ${like}`);
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
  params.push(GLOBAL_SEARCH_LIMIT + 1);
  return {
    text: `select s.id as store_id, s.customer_id, s.store_name, s.doing_business_as, s.br_acct as bracct,
                  c.legal_name, s.store_address->>'city' as city, s.state, s.status
           from stores s join customers c on c.id = s.customer_id
           where ${arms.join(' or ')}
           order by ${[`(${exact.join(' or ')}) desc`, ...order, 'lower(s.store_name)', 's.id'].join(', ')}
           limit $${params.length}`,
    params,
  };
}

/** The text as typed and upper-cased (serial numbers and unified order ids are stored upper-case), bound. */
function typedForms(p: (value: unknown) => string, text: string): string {
  return [...new Set([text, text.toUpperCase()])].map(p).join(', ');
}

function terminalsSql(t: GlobalSearchTerms): KindSql {
  const { p, params } = binder();
  const where = `t.elmer_id = ${p(t.exact)} or t.serial_number in (${typedForms(p, t.exact)})`;
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
