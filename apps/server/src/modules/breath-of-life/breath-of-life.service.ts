import type { Readable } from 'node:stream';
import {
  FEES,
  INVOICE_STATUS_LABELS,
  parseSort,
  WINBACK_ACTIVITY_LABELS,
  WINBACK_CLOSED_STATUSES,
  WINBACK_CSV_COLUMNS,
  WINBACK_DEFAULT_SORT,
  WINBACK_STATUS_LABELS,
  type CurrencyCode,
  type WinbackActivityCreate,
  type WinbackActivityKind,
  type WinbackCase,
  type WinbackItem,
  type WinbackListQuery,
  type WinbackListResult,
  type WinbackOfferCreate,
  type WinbackOutcomeCreate,
  type WinbackReactivate,
  type WinbackReactivation,
  type WinbackReason,
  type WinbackSortField,
  type WinbackStatus,
} from '@pos/domain';
import { and, asc, desc, eq, gte, isNull, lte, or, sql } from 'drizzle-orm';
import { withTx, type ServiceCtx } from '../../context';
import { numberedSql, type Db } from '../../db/client';
import { promotions, winbackActivities, winbackCases } from '../../db/schema';
import { writeAudit } from '../../http/audit';
import { AppError, fieldError, versionConflict } from '../../http/errors';
import { runIdempotent } from '../../http/idempotency';
import { mailPaymentUpdateLink, merchantContact } from '../../jobs/merchant-contact';
import { csvStream } from '../../lib/csv-stream';
import { searchTextPattern } from '../../lib/sql-like';
import { billingToday, prepareLicenseJobs, reactivateStore } from '../billing';

/*
 * Breath of life (#/breathoflife; issue 18 part 4, decision 131): the win-back work list and its cases.
 * A store is on the list while its license is lapsed (stores.license_lapsed_on, set by the billing run past the §9
 * grace) or its service plan was canceled more than the grace ago with no active service plan left; and, once it
 * has a case, for good (a won store shows as won). The list is one statement: candidates, then the page with its
 * last invoice, last activity and e-mail as laterals, and the total.
 */

const GRACE = FEES.LICENSE_EXPIRY_GRACE_PERIOD_DAYS;

type Exec = <T>(text: string, params: unknown[]) => Promise<T[]>;
const rowsOf = <T>(res: unknown) => (res as { rows: T[] }).rows;
const txExec =
  (tx: Db): Exec =>
  async <T>(text: string, params: unknown[]) =>
    rowsOf<T>(await tx.execute(numberedSql(text, params)));
const dbExec =
  (ctx: ServiceCtx): Exec =>
  <T>(text: string, params: unknown[]) =>
    ctx.app.database.query<T>(text, params) as Promise<T[]>;

interface Row {
  total: number;
  store_id: number | null;
  customer_id: number;
  legal_name: string;
  doing_business_as: string;
  first_name: string;
  last_name: string;
  phone: string | null;
  email: string;
  country: string;
  currency: string;
  last_invoice_id: number | null;
  last_invoice_number: string | null;
  last_invoice_on: string | null;
  last_invoice_cents: string | null;
  last_invoice_status: string | null;
  reason: WinbackReason;
  reason_on: string;
  days_since: number;
  status: WinbackStatus;
  version: number;
  last_activity_at: Date | string | null;
  last_activity_kind: WinbackActivityKind | null;
  last_activity_text: string | null;
}

/** The sort of a page; `p` is the alias whose columns it names (the inner page and the outer select). */
function orderBy(sort: WinbackListQuery['sort'], p: string): string {
  const s = parseSort<WinbackSortField>(sort ?? WINBACK_DEFAULT_SORT, 'days_since');
  const dir = s.desc ? 'desc' : 'asc';
  const key: Record<WinbackSortField, string> = {
    // Fewest days since first: the latest day first.
    days_since: `${p}.reason_on ${s.desc ? 'asc' : 'desc'}`,
    customer: `lower(${p}.legal_name) ${dir}`,
    store: `lower(${p}.doing_business_as) ${dir}`,
    country: `${p}.country ${dir}`,
    last_activity_at: `${p}.last_activity_at ${dir} nulls last`,
  };
  return `${key[s.field]}, ${p}.store_id ${dir}`;
}

/**
 * The list statement. $1 today (billing day), $2 the billing time zone; then the filters' parameters. With
 * `storeId`, the one store (its case panel), whatever the filters.
 */
function listStatement(
  q: Pick<WinbackListQuery, 'reason' | 'country' | 'status' | 'q' | 'sort'>,
  page: { limit: number; offset: number },
  today: string,
  timeZone: string,
  storeId?: number,
): { text: string; params: unknown[] } {
  const params: unknown[] = [today, timeZone];
  const p = (v: unknown) => {
    params.push(v);
    return `$${params.length}`;
  };
  const where: string[] = [];
  if (storeId !== undefined) where.push(`c.store_id = ${p(storeId)}`);
  if (q.reason) where.push(`c.reason = ${p(q.reason)}`);
  if (q.country) where.push(`s.country = ${p(q.country)}`);
  if (q.status) where.push(`coalesce(w.status, 'new') = ${p(q.status)}`);
  if (q.q) {
    const pattern = p(searchTextPattern(q.q));
    where.push(`(s.search_text like ${pattern} or cu.search_text like ${pattern})`);
  }
  const candidates =
    storeId === undefined
      ? `select w.store_id, w.reason, w.reason_on, 0 as prio from winback_cases w
         union all
         select s.id, 'lapsed', s.license_lapsed_on, 1 from stores s where s.license_lapsed_on is not null
         union all
         select p.store_id, 'canceled', max((p.updated_at at time zone $2)::date), 2
         from customer_payment_plans p
         where p.status = 'canceled' and p.kind in ('monthly', 'yearly') and p.store_id is not null
           and not exists (select 1 from customer_payment_plans a
                           where a.store_id = p.store_id and a.status = 'active' and a.kind in ('monthly', 'yearly'))
         group by p.store_id
         having max((p.updated_at at time zone $2)::date) <= $1::date - ${GRACE}`
      : // One store: the same three sources, each narrowed to it (index walks by store id).
        `select w.store_id, w.reason, w.reason_on, 0 as prio from winback_cases w where w.store_id = ${p(storeId)}
         union all
         select s.id, 'lapsed', s.license_lapsed_on, 1 from stores s
         where s.id = $${params.length} and s.license_lapsed_on is not null
         union all
         select p.store_id, 'canceled', max((p.updated_at at time zone $2)::date), 2
         from customer_payment_plans p
         where p.store_id = $${params.length} and p.status = 'canceled' and p.kind in ('monthly', 'yearly')
           and not exists (select 1 from customer_payment_plans a
                           where a.store_id = p.store_id and a.status = 'active' and a.kind in ('monthly', 'yearly'))
         group by p.store_id
         having max((p.updated_at at time zone $2)::date) <= $1::date - ${GRACE}`;
  const limit = p(page.limit);
  const offset = p(page.offset);
  const text = `
    with cand as (
      select distinct on (x.store_id) x.store_id, x.reason, x.reason_on
      from (${candidates}) x
      order by x.store_id, x.prio
    ),
    f as (
      select c.store_id, c.reason, c.reason_on::text as reason_on, s.customer_id, s.doing_business_as, s.country,
             s.currency, coalesce(cu.phone, s.phone) as phone, cu.legal_name, cu.first_name, cu.last_name,
             cu.email as customer_email, coalesce(w.status, 'new') as status, coalesce(w.version, 0) as version,
             w.id as case_id, w.last_activity_at, ($1::date - c.reason_on)::int as days_since
      from cand c
      join stores s on s.id = c.store_id
      join customers cu on cu.id = s.customer_id
      left join winback_cases w on w.store_id = c.store_id
      ${where.length > 0 ? `where ${where.join(' and ')}` : ''}
    )
    select t.total, pg.* from (select count(*)::int as total from f) t
    left join lateral (
      select f.store_id, f.customer_id, f.legal_name, f.doing_business_as, f.first_name, f.last_name, f.phone,
             coalesce(em.email, f.customer_email) as email, f.country, f.currency, f.reason, f.reason_on,
             f.days_since, f.status, f.version, f.last_activity_at,
             li.id as last_invoice_id, li.invoice_number as last_invoice_number,
             li.issued_on::text as last_invoice_on, li.total_cents::text as last_invoice_cents,
             b.status as last_invoice_status, la.kind as last_activity_kind, la.text as last_activity_text
      from f
      left join lateral (
        select i.id, i.invoice_number, i.issued_on, i.total_cents
        from invoices i where i.store_id = f.store_id
        order by i.issued_on desc, i.id desc limit 1
      ) li on true
      -- The ledger's status of that one invoice (the view narrowed to its id).
      left join invoice_balances b on b.invoice_id = li.id
      left join lateral (
        select a.kind, a.text from winback_activities a where a.case_id = f.case_id
        order by a.at desc, a.id desc limit 1
      ) la on true
      left join lateral (
        select e.email from store_emails e
        where e.store_id = f.store_id and e.kind in ('billing', 'owner', 'general')
        order by array_position(array['billing', 'owner', 'general'], e.kind), e.is_primary desc, e.id limit 1
      ) em on true
      order by ${orderBy(q.sort, 'f')}
      limit ${limit} offset ${offset}
    ) pg on true
    order by ${orderBy(q.sort, 'pg')}`;
  return { text, params };
}

const iso = (v: Date | string | null): string | null =>
  v === null ? null : v instanceof Date ? v.toISOString() : new Date(v).toISOString();

function toItem(r: Row): WinbackItem {
  return {
    store_id: r.store_id!,
    customer_id: r.customer_id,
    legal_name: r.legal_name,
    doing_business_as: r.doing_business_as,
    contact_name: [r.first_name, r.last_name].filter(Boolean).join(' ') || r.legal_name,
    phone: r.phone,
    email: r.email,
    country: r.country,
    currency: r.currency as CurrencyCode,
    last_invoice_id: r.last_invoice_id,
    last_invoice_number: r.last_invoice_number,
    last_invoice_on: r.last_invoice_on,
    last_invoice_cents: r.last_invoice_cents === null ? null : Number(r.last_invoice_cents),
    last_invoice_status:
      r.last_invoice_status === null
        ? null
        : (INVOICE_STATUS_LABELS[r.last_invoice_status as keyof typeof INVOICE_STATUS_LABELS] ?? r.last_invoice_status),
    reason: r.reason,
    reason_on: r.reason_on,
    days_since: r.days_since,
    status: r.status,
    version: r.version,
    last_activity_at: iso(r.last_activity_at),
    last_activity:
      r.last_activity_kind === null
        ? null
        : `${WINBACK_ACTIVITY_LABELS[r.last_activity_kind]}: ${r.last_activity_text ?? ''}`,
  };
}

async function listPage(
  ctx: ServiceCtx,
  exec: Exec,
  q: WinbackListQuery,
  page: { limit: number; offset: number },
): Promise<WinbackListResult> {
  const st = listStatement(q, page, billingToday(ctx.app), ctx.app.config.billing.timeZone);
  const rows = await exec<Row>(st.text, st.params);
  return { items: rows.filter((r) => r.store_id !== null).map(toItem), total: rows[0]?.total ?? 0 };
}

/** GET /api/breathoflife/{token}: one page and the total. */
export function listWinback(ctx: ServiceCtx, q: WinbackListQuery): Promise<WinbackListResult> {
  return listPage(ctx, dbExec(ctx), q, q);
}

/** format=csv: every row the filters match, in the list's order, streamed page by page. */
export function listWinbackCsv(ctx: ServiceCtx, q: WinbackListQuery): Readable {
  const exec = dbExec(ctx);
  return csvStream(
    WINBACK_CSV_COLUMNS,
    async (limit, offset) => (await listPage(ctx, exec, q, { limit, offset })).items,
  );
}

// ── A store's case ─────────────────────────────────────────────────────────────────────────────────────

type CaseRow = typeof winbackCases.$inferSelect;

async function itemOf(ctx: ServiceCtx, exec: Exec, storeId: number): Promise<WinbackItem> {
  const st = listStatement(
    {},
    { limit: 1, offset: 0 },
    billingToday(ctx.app),
    ctx.app.config.billing.timeZone,
    storeId,
  );
  const [row] = await exec<Row>(st.text, st.params);
  if (!row || row.store_id === null)
    throw new AppError('not_found', `Store ${storeId} is not on the win-back list (its license is not lapsed).`);
  return toItem(row);
}

async function caseOf(ctx: ServiceCtx, db: Db, exec: Exec, storeId: number): Promise<WinbackCase> {
  const item = await itemOf(ctx, exec, storeId);
  const [c] = await db
    .select({ c: winbackCases, code: promotions.code })
    .from(winbackCases)
    .leftJoin(promotions, eq(promotions.id, winbackCases.offerPromotionId))
    .where(eq(winbackCases.storeId, storeId));
  const activities = c
    ? await db
        .select()
        .from(winbackActivities)
        .where(eq(winbackActivities.caseId, c.c.id))
        .orderBy(desc(winbackActivities.at), desc(winbackActivities.id))
    : [];
  const today = billingToday(ctx.app);
  const offers = await db
    .select({ id: promotions.id, code: promotions.code, name: promotions.name, currency: promotions.currency })
    .from(promotions)
    .where(
      and(
        eq(promotions.active, true),
        eq(promotions.currency, item.currency),
        or(isNull(promotions.startsOn), lte(promotions.startsOn, today)),
        or(isNull(promotions.expiresOn), gte(promotions.expiresOn, today)),
      ),
    )
    .orderBy(asc(promotions.code));
  const feeWaived = c?.c.feeWaived ?? false;
  return {
    ...item,
    offer_kind: (c?.c.offerKind as WinbackCase['offer_kind']) ?? null,
    offer_promotion_id: c?.c.offerPromotionId ?? null,
    offer_promotion_code: c?.code ?? null,
    outcome_reason: c?.c.outcomeReason ?? null,
    reactivation_fee_cents: item.country === 'US' && !feeWaived ? FEES.US_REACTIVATION_FEE_CENTS : null,
    activities: activities.map((a) => ({
      id: a.id,
      kind: a.kind as WinbackActivityKind,
      text: a.text,
      by: a.actorName,
      at: a.at.toISOString(),
    })),
    promotions: offers.map((o) => ({ ...o, currency: o.currency as CurrencyCode })),
  };
}

/** GET /api/breathoflife/{storeId}/{token}. */
export function getWinbackCase(ctx: ServiceCtx, storeId: number): Promise<WinbackCase> {
  return caseOf(ctx, ctx.app.database.db, dbExec(ctx), storeId);
}

/**
 * The store's case, locked, at the version the caller read (0: none yet — it is made now). A stale version → 409
 * with the case as it is.
 */
async function lockCase(ctx: ServiceCtx, tx: Db, storeId: number, version: number, now: Date): Promise<CaseRow> {
  const exec = txExec(tx);
  const item = await itemOf(ctx, exec, storeId);
  const conflict = async () =>
    versionConflict(`The win-back case of store ${storeId}`, await caseOf(ctx, tx, exec, storeId), version);
  let [row] = await tx.select().from(winbackCases).where(eq(winbackCases.storeId, storeId)).for('update');
  if (!row) {
    if (version !== 0) throw await conflict();
    [row] = await tx
      .insert(winbackCases)
      .values({
        storeId,
        customerId: item.customer_id,
        reason: item.reason,
        reasonOn: item.reason_on,
        status: 'new',
        // The first action makes it version 1 (0: no case yet, as the list says).
        version: 0,
        createdAt: now,
        updatedAt: now,
      })
      .onConflictDoNothing()
      .returning();
    // Someone else opened the case meanwhile.
    if (!row) throw await conflict();
    return row;
  }
  if (row.version !== version) throw await conflict();
  return row;
}

async function record(
  ctx: ServiceCtx,
  tx: Db,
  c: CaseRow,
  now: Date,
  kind: WinbackActivityKind,
  text: string,
  set: Partial<typeof winbackCases.$inferInsert>,
  action: string,
): Promise<void> {
  await tx.insert(winbackActivities).values({
    caseId: c.id,
    kind,
    text,
    actorName: ctx.actor.actorEmail ?? ctx.actor.actorType,
    at: now,
  });
  await tx
    .update(winbackCases)
    .set({ ...set, lastActivityAt: now, updatedAt: now, version: sql`${winbackCases.version} + 1` })
    .where(eq(winbackCases.id, c.id));
  await writeAudit(tx, {
    ...ctx.actor,
    at: now,
    action,
    entity: 'winback_case',
    entityId: c.id,
    before: { store_id: c.storeId, customer_id: c.customerId, status: c.status, version: c.version },
    after: { store_id: c.storeId, customer_id: c.customerId, kind, text, ...set },
    requestId: ctx.requestId,
    customerId: c.customerId,
  });
}

function requireOpen(c: CaseRow, what: string): void {
  if (WINBACK_CLOSED_STATUSES.includes(c.status as WinbackStatus))
    throw new AppError(
      'conflict',
      `The win-back case of store ${c.storeId} is ${WINBACK_STATUS_LABELS[c.status as WinbackStatus].toLowerCase()}; ${what}.`,
    );
}

/** POST …/{storeId}/activities: a call (a new case becomes contacted) or a note. */
export function logWinbackActivity(
  ctx: ServiceCtx,
  storeId: number,
  body: WinbackActivityCreate,
): Promise<WinbackCase> {
  return withTx(ctx, async (tx) => {
    const now = ctx.app.clock.now();
    const c = await lockCase(ctx, tx, storeId, body.version, now);
    const set = body.kind === 'call' && c.status === 'new' ? { status: 'contacted' } : {};
    await record(ctx, tx, c, now, body.kind, body.text, set, `winback_${body.kind}`);
    return caseOf(ctx, tx, txExec(tx), storeId);
  });
}

/** POST …/{storeId}/offer: waive the reactivation fee, or offer an active promotion in the store's currency. */
export function makeWinbackOffer(ctx: ServiceCtx, storeId: number, body: WinbackOfferCreate): Promise<WinbackCase> {
  return withTx(ctx, async (tx) => {
    const now = ctx.app.clock.now();
    const c = await lockCase(ctx, tx, storeId, body.version, now);
    requireOpen(c, 'no offer can be made');
    let text = 'Reactivation fee waived';
    if (body.offer === 'promotion') {
      const today = billingToday(ctx.app);
      const item = await itemOf(ctx, txExec(tx), storeId);
      const [promo] = await tx.select().from(promotions).where(eq(promotions.id, body.promotion_id!));
      const usable =
        promo &&
        promo.active &&
        promo.currency === item.currency &&
        (promo.startsOn === null || promo.startsOn <= today) &&
        (promo.expiresOn === null || promo.expiresOn >= today);
      if (!usable)
        throw fieldError('promotion_id', `Choose an active ${item.currency} promotion: that one cannot be offered.`);
      text = `Promotion ${promo.code} (${promo.name})`;
    }
    if (body.note) text = `${text}. ${body.note}`;
    await record(
      ctx,
      tx,
      c,
      now,
      'offer',
      text,
      {
        status: 'offer_made',
        offerKind: body.offer,
        offerPromotionId: body.offer === 'promotion' ? body.promotion_id! : null,
        feeWaived: body.offer === 'fee_waived',
      },
      'winback_offer',
    );
    return caseOf(ctx, tx, txExec(tx), storeId);
  });
}

/** POST …/{storeId}/outcome: won or lost (with why). */
export function recordWinbackOutcome(
  ctx: ServiceCtx,
  storeId: number,
  body: WinbackOutcomeCreate,
): Promise<WinbackCase> {
  return withTx(ctx, async (tx) => {
    const now = ctx.app.clock.now();
    const c = await lockCase(ctx, tx, storeId, body.version, now);
    requireOpen(c, 'its outcome is recorded already');
    const reason = body.reason || null;
    const text = `${WINBACK_STATUS_LABELS[body.outcome]}${reason ? `: ${reason}` : ''}`;
    await record(ctx, tx, c, now, 'outcome', text, { status: body.outcome, outcomeReason: reason }, 'winback_outcome');
    return caseOf(ctx, tx, txExec(tx), storeId);
  });
}

/**
 * POST …/{storeId}/reactivate (Idempotency-Key): the billing engine re-opens the store's plan and license
 * (reactivateStore: the US fee invoice unless the offer waived it), the merchant is mailed the payment link, and
 * the case is won — one transaction, no gateway call.
 */
export function reactivateWinback(
  ctx: ServiceCtx,
  storeId: number,
  body: WinbackReactivate,
  idempotencyKey: string | undefined,
): Promise<WinbackReactivation> {
  return runIdempotent(
    ctx,
    {
      route: 'POST /breathoflife/:storeId/reactivate',
      key: idempotencyKey,
      request: { params: { storeId }, body },
    },
    {
      outside: () => prepareLicenseJobs(ctx.app),
      effect: async (tx, now) => {
        const c = await lockCase(ctx, tx, storeId, body.version, now);
        requireOpen(c, 'it cannot be reactivated');
        const contact = await merchantContact(tx, storeId, ['billing', 'owner', 'general']);
        if (!contact) throw new AppError('not_found', `Store ${storeId} does not exist.`);
        const store = contact.store;
        const { feeInvoice, planId } = await reactivateStore(
          tx,
          ctx.app,
          { store_id: store.id, customer_id: store.customerId, country: store.country, currency: store.currency },
          { waiveFee: c.feeWaived },
          now,
          ctx.actor,
          ctx.requestId,
        );
        const link = await mailPaymentUpdateLink(tx, ctx.app, contact, now, {
          createdByStaffId: ctx.session.kind === 'staff' ? ctx.session.staffUserId : null,
        });
        const fee = feeInvoice
          ? `reactivation fee invoice ${feeInvoice.invoiceNumber}`
          : store.country === 'US'
            ? 'reactivation fee waived (offer)'
            : 'no reactivation fee (Canada)';
        const text = `Reactivated: ${fee}; payment link sent to ${contact.email}${body.note ? `. ${body.note}` : ''}`;
        await record(
          ctx,
          tx,
          c,
          now,
          'reactivated',
          text,
          { status: 'won', outcomeReason: 'Reactivated' },
          'winback_reactivate',
        );
        await writeAudit(tx, {
          ...ctx.actor,
          at: now,
          action: 'send_payment_link',
          entity: 'store',
          entityId: store.id,
          after: {
            store_id: store.id,
            customer_id: store.customerId,
            link_token_id: link.linkTokenId,
            mail_id: link.mailId,
            plan_id: planId,
            fee_invoice_id: feeInvoice?.id ?? null,
            fee_waived: c.feeWaived,
          },
          requestId: ctx.requestId,
          customerId: store.customerId,
        });
        return {
          case: await caseOf(ctx, tx, txExec(tx), storeId),
          fee_invoice_number: feeInvoice?.invoiceNumber ?? null,
          payment_link_sent_to: contact.email,
        };
      },
    },
  );
}
