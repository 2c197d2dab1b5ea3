import {
  canChangeFeature,
  JOB_QUEUE,
  MERCHANT_LINK_EXPIRED,
  MERCHANT_LINK_UNKNOWN,
  MERCHANT_LINK_USED,
  MERCHANT_NEW_LINK_HELP,
  type CurrencyCode,
  type FeatureChange,
  type FeatureChangeLine,
  type FeatureChangeList,
  type FeatureChangePrepareRequest,
  type FeatureChangeStatus,
  type MerchantFeatureChangeView,
  type MerchantFeatureDecisionRequest,
} from '@pos/domain';
import { and, desc, eq, sql } from 'drizzle-orm';
import { withTx, type ServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import { customerPaymentPlans, featureChanges, linkTokens, stores } from '../../db/schema';
import { actorOfSession, writeAudit, type AuditActor } from '../../http/audit';
import { requireCustomer, requireStoreOf, viewerOf } from '../../access';
import { AppError, fieldError, versionConflict } from '../../http/errors';
import { defineQueues, enqueueJob } from '../../jobs/registry';
import { findLinkToken, revokeLinkTokens, useLinkToken, type LinkTokenRow } from '../../lib/link-tokens';
import { changeFeaturesIn, diffFeatures, featurePlanOf, featureState, updatePlanIn } from '../customer-accounts';

/*
 * The merchant's feature-change page (issue 16 point 6, decision 123). Staff prepare a change of a store's features
 * (the features PUT's body: the set that should be on) and the server records it as a feature_changes row with the
 * store's monthly amount now and after; the feature-change e-mail job mails the merchant a 'features' link (14 days).
 * The merchant accepts — the change is applied through the features PUT's own code and the plan edit's, in one
 * transaction, stamped with time and IP — or declines. A newer change of the store replaces the one still waiting.
 */

type ChangeRow = typeof featureChanges.$inferSelect;
type PlanRow = typeof customerPaymentPlans.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);
const todayOf = (now: Date) => now.toISOString().slice(0, 10);

/** The first billing day at the new amount: the plan's next billing day, today when none or past. */
function effectiveDay(plan: Pick<PlanRow, 'nextBillingOn'>, today: string): string {
  return plan.nextBillingOn && plan.nextBillingOn > today ? plan.nextBillingOn : today;
}

function linesOf(row: ChangeRow): FeatureChangeLine[] {
  return row.changes as FeatureChangeLine[];
}

function toFeatureChange(row: ChangeRow, emailJobId: string | null = null): FeatureChange {
  return {
    feature_change_id: row.id,
    customer_id: row.customerId,
    store_id: row.storeId,
    plan_id: row.planId,
    changes: linesOf(row),
    current_monthly_cents: row.currentMonthlyCents,
    new_monthly_cents: row.newMonthlyCents,
    currency: row.currency as CurrencyCode,
    effective_on: row.effectiveOn,
    status: row.status as FeatureChangeStatus,
    created_by_email: row.createdByEmail,
    created_at: row.createdAt.toISOString(),
    decided_at: iso(row.decidedAt),
    decided_ip: row.decidedIp,
    email_job_id: emailJobId,
    version: row.version,
  };
}

function toView(row: ChangeRow, storeName: string, link: LinkTokenRow | null): MerchantFeatureChangeView {
  return {
    store_name: storeName,
    changes: linesOf(row),
    current_monthly_cents: row.currentMonthlyCents,
    new_monthly_cents: row.newMonthlyCents,
    currency: row.currency as CurrencyCode,
    effective_on: row.effectiveOn,
    status: row.status as FeatureChangeStatus,
    decided_at: iso(row.decidedAt),
    expires_at: link ? link.expiresAt.toISOString() : null,
    version: row.version,
  };
}

/** What an audit entry keeps of a change. */
function auditOf(row: Pick<ChangeRow, 'id' | 'storeId' | 'status'>, extra: Record<string, unknown> = {}) {
  return { feature_change_id: row.id, store_id: row.storeId, status: row.status, ...extra };
}

// ── Staff ─────────────────────────────────────────────────────────────────────────────────────────

/**
 * POST …/featurechanges: the store's features as they should be become a change for the merchant to accept. The
 * same checks as the features PUT (stale features_version 409, not a feature / no price 400, a limited holder's
 * other features 403), plus: something changes, and the store has an active monthly plan (the amount the merchant
 * agrees to). Nothing is switched yet. Earlier changes of the store still waiting are canceled (their links stop).
 */
export async function prepareFeatureChange(
  ctx: ServiceCtx,
  customerId: number,
  body: FeatureChangePrepareRequest,
): Promise<FeatureChange> {
  const { app } = ctx;
  // Creating a queue runs outside the transaction (PGlite has one connection).
  await defineQueues(app.queue, { queues: [JOB_QUEUE.featureChangeEmail] });
  const result = await withTx(ctx, async (tx) => {
    const store = await requireStoreOf(tx, viewerOf(ctx), customerId, body.custstoreid, 'custstoreid', true);
    const state = await featureState(tx, ctx, customerId, store);
    if (body.features_version !== state.features.features_version) {
      throw new AppError(
        'version_conflict',
        `The features of store ${store.id} were changed by someone else since you opened them. Reload and prepare the change again.`,
        undefined,
        { current: state.features },
      );
    }
    const { added, removed } = diffFeatures(state.features, body.features, (name) =>
      canChangeFeature(ctx.session.privileges, name),
    );
    if (added.length === 0 && removed.length === 0)
      throw fieldError('features', 'Nothing changes: switch at least one feature on or off, then send it.');
    const plan = await featurePlanOf(tx, store.id);
    if (!plan || plan.kind !== 'monthly') {
      throw fieldError(
        'custstoreid',
        `Store ${store.id} has no active monthly plan, so there is no monthly amount for the merchant to accept. Save the features directly instead.`,
      );
    }
    const lines: FeatureChangeLine[] = [
      ...added.map((f) => ({
        billing_item_id: f.billing_item_id,
        name: f.name,
        action: 'add' as const,
        monthly_cents: f.price_cents!,
      })),
      ...removed.map((f) => ({
        billing_item_id: f.billing_item_id,
        name: f.name,
        action: 'remove' as const,
        monthly_cents: (state.rowsByItem.get(f.billing_item_id) ?? []).reduce(
          (sum, r) => sum + r.unitPriceCents * r.quantity,
          0,
        ),
      })),
    ];
    const delta = lines.reduce((sum, l) => sum + (l.action === 'add' ? l.monthly_cents : -l.monthly_cents), 0);
    const now = app.clock.now();
    const actor = actorOfSession(ctx.session);

    const replaced = await tx
      .update(featureChanges)
      .set({ status: 'canceled', updatedAt: now, version: sql`${featureChanges.version} + 1` })
      .where(and(eq(featureChanges.storeId, store.id), eq(featureChanges.status, 'sent')))
      .returning();
    await revokeLinkTokens(
      tx,
      replaced.flatMap((r) => (r.linkTokenId === null ? [] : [r.linkTokenId])),
      now,
    );
    for (const r of replaced) {
      await writeAudit(tx, {
        ...actor,
        at: now,
        action: 'feature_change_canceled',
        entity: 'feature_change',
        entityId: r.id,
        customerId,
        before: auditOf({ ...r, status: 'sent' }),
        after: auditOf(r, { reason: 'replaced by a newer change' }),
        requestId: ctx.requestId,
      });
    }

    const [row] = await tx
      .insert(featureChanges)
      .values({
        customerId,
        storeId: store.id,
        planId: plan.id,
        changes: lines,
        currentMonthlyCents: plan.recurringAmountCents,
        newMonthlyCents: Math.max(0, plan.recurringAmountCents + delta),
        currency: store.currency,
        effectiveOn: effectiveDay(plan, todayOf(now)),
        status: 'sent',
        createdByEmail: ctx.session.email,
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    const change = row!;
    const input = {
      storeid: store.id,
      features: lines.map((l) => ({ billingitemid: l.billing_item_id, action: l.action })),
      effectiveOn: change.effectiveOn,
      ...(body.email ? { email: body.email } : {}),
      feature_change_id: change.id,
    };
    const jobId = await enqueueJob(
      app.queue,
      JOB_QUEUE.featureChangeEmail,
      { input, requestedBy: actor, requestId: ctx.requestId },
      tx,
    );
    await writeAudit(tx, {
      ...actor,
      at: now,
      action: 'feature_change_prepared',
      entity: 'feature_change',
      entityId: change.id,
      customerId,
      after: {
        ...auditOf(change),
        plan_id: plan.id,
        changes: lines,
        current_monthly_cents: change.currentMonthlyCents,
        new_monthly_cents: change.newMonthlyCents,
        currency: change.currency,
        effective_on: change.effectiveOn,
        email_job_id: jobId,
        replaced: replaced.map((r) => r.id),
      },
      requestId: ctx.requestId,
    });
    return toFeatureChange(change, jobId);
  });
  if (result.email_job_id) app.queue.wake(JOB_QUEUE.featureChangeEmail);
  return result;
}

/** GET …/featurechanges?custstoreid: the store's prepared changes, newest first (the last 50). */
export async function listFeatureChanges(
  ctx: ServiceCtx,
  customerId: number,
  storeId: number,
): Promise<FeatureChangeList> {
  const db = ctx.app.database.db;
  await requireStoreOf(db, viewerOf(ctx), customerId, storeId, 'custstoreid');
  const rows = await db
    .select()
    .from(featureChanges)
    .where(and(eq(featureChanges.customerId, customerId), eq(featureChanges.storeId, storeId)))
    .orderBy(desc(featureChanges.createdAt), desc(featureChanges.id))
    .limit(50);
  return { items: rows.map((r) => toFeatureChange(r)) };
}

/** POST …/featurechanges/{changeId}/cancel: withdraw a change still waiting; its link stops working. */
export async function cancelFeatureChange(
  ctx: ServiceCtx,
  customerId: number,
  changeId: number,
  version: number,
): Promise<FeatureChange> {
  return withTx(ctx, async (tx) => {
    await requireCustomer(tx, viewerOf(ctx), customerId);
    const [row] = await tx
      .select()
      .from(featureChanges)
      .where(and(eq(featureChanges.id, changeId), eq(featureChanges.customerId, customerId)))
      .for('update');
    if (!row) throw new AppError('not_found', `Feature change ${changeId} is not a change of customer ${customerId}.`);
    if (row.version !== version) throw versionConflict(`Feature change ${changeId}`, toFeatureChange(row), version);
    if (row.status !== 'sent')
      throw new AppError('conflict', `Feature change ${changeId} is ${row.status}; only a waiting change is canceled.`);
    const refused = linesOf(row).filter((l) => !canChangeFeature(ctx.session.privileges, l.name));
    if (refused.length > 0)
      throw new AppError(
        'forbidden',
        `You may not cancel a change of ${refused.map((l) => `'${l.name}'`).join(', ')}: that needs customer_features_edit.`,
      );
    const now = ctx.app.clock.now();
    const [after] = await tx
      .update(featureChanges)
      .set({ status: 'canceled', updatedAt: now, version: sql`${featureChanges.version} + 1` })
      .where(eq(featureChanges.id, changeId))
      .returning();
    if (row.linkTokenId !== null) await revokeLinkTokens(tx, [row.linkTokenId], now);
    await writeAudit(tx, {
      ...actorOfSession(ctx.session),
      at: now,
      action: 'feature_change_canceled',
      entity: 'feature_change',
      entityId: changeId,
      customerId,
      before: auditOf(row),
      after: auditOf(after!),
      requestId: ctx.requestId,
    });
    return toFeatureChange(after!);
  });
}

// ── The merchant's link ───────────────────────────────────────────────────────────────────────────

const DECIDED_TEXT: Record<Exclude<FeatureChangeStatus, 'sent'>, string> = {
  accepted: 'You already accepted this feature change',
  declined: 'You already declined this feature change',
  canceled: 'This feature change was withdrawn by our team',
};

/**
 * The change of a 'features' link, locked when deciding. 404: never issued for a feature change (a payment link,
 * a guessed one). Deciding a change that is no longer waiting: 409 saying what became of it. Otherwise a used,
 * expired or replaced link: 410. The page shows nothing but the message.
 */
async function changeOfLink(
  db: Db,
  tok: string,
  now: Date,
  deciding: boolean,
): Promise<{ link: LinkTokenRow; change: ChangeRow; storeName: string }> {
  const found = await findLinkToken(db, { token: tok, purpose: 'features', subjectType: 'feature_change', now });
  if (found.state === 'unknown') throw new AppError('not_found', MERCHANT_LINK_UNKNOWN);
  const q = db
    .select({ change: featureChanges, storeName: stores.doingBusinessAs })
    .from(featureChanges)
    .innerJoin(stores, eq(stores.id, featureChanges.storeId))
    .where(eq(featureChanges.id, Number(found.link.subjectId)));
  const [row] = deciding ? await q.for('update', { of: featureChanges }) : await q;
  if (!row) throw new AppError('not_found', MERCHANT_LINK_UNKNOWN);
  if (deciding && row.change.status !== 'sent') {
    const status = row.change.status as Exclude<FeatureChangeStatus, 'sent'>;
    const when = row.change.decidedAt ? ` on ${row.change.decidedAt.toISOString().slice(0, 10)}` : '';
    throw new AppError('conflict', `${DECIDED_TEXT[status]}${when}. ${MERCHANT_NEW_LINK_HELP}`);
  }
  if (found.state === 'used') throw new AppError('link_expired', MERCHANT_LINK_USED);
  if (found.state === 'expired') throw new AppError('link_expired', MERCHANT_LINK_EXPIRED);
  return { link: found.link, change: row.change, storeName: row.storeName };
}

/** GET /api/public/features/{tok}: the store's name, the changes and the monthly amounts — nothing else. */
export async function viewFeatureChange(ctx: ServiceCtx<null>, tok: string): Promise<MerchantFeatureChangeView> {
  const { link, change, storeName } = await changeOfLink(ctx.app.database.db, tok, ctx.app.clock.now(), false);
  return toView(change, storeName, link);
}

const STALE_OFFER = `The store's features, prices or plan changed since this offer was prepared, so it cannot be accepted as it stands. ${MERCHANT_NEW_LINK_HELP}`;

/**
 * POST /api/public/features/{tok} {decision, version}. Accept: in one transaction the link is used up, the
 * features are switched through the features PUT's own code (changeFeaturesIn) and the plan's monthly amount is set
 * through the plan edit's (updatePlanIn), both audited as the merchant; the change is stamped accepted with time
 * and IP. The offer must still hold (every added feature off at the offered price, every removed one on, the plan at
 * the amount shown) — else 409 and nothing changes. Decline: stamped declined, the link used up.
 */
export async function decideFeatureChange(
  ctx: ServiceCtx<null>,
  tok: string,
  body: MerchantFeatureDecisionRequest,
): Promise<MerchantFeatureChangeView> {
  const now = ctx.app.clock.now();
  const today = todayOf(now);
  return withTx(ctx, async (tx) => {
    const { link, change, storeName } = await changeOfLink(tx, tok, now, true);
    if (change.version !== body.version)
      throw versionConflict('This feature change', toView(change, storeName, link), body.version);
    if (!(await useLinkToken(tx, link.id, now))) throw new AppError('link_expired', MERCHANT_LINK_USED);
    const actor: AuditActor = { actorType: 'merchant', actorId: `store:${change.storeId}`, actorEmail: null };
    const merchant = { ...ctx, actor };
    const ip = ctx.ip ?? 'unknown';

    let effectiveOn = change.effectiveOn;
    if (body.decision === 'accept') {
      const store = await requireStoreOf(tx, viewerOf(ctx), change.customerId, change.storeId, 'store', true);
      const state = await featureState(tx, merchant, change.customerId, store);
      const byId = new Map(state.features.features.map((f) => [f.billing_item_id, f]));
      const on = new Set(state.features.features.filter((f) => f.enabled).map((f) => f.billing_item_id));
      for (const l of linesOf(change)) {
        const f = byId.get(l.billing_item_id);
        const holds =
          f !== undefined && (l.action === 'add' ? !f.enabled && f.price_cents === l.monthly_cents : f.enabled);
        if (!holds) throw new AppError('conflict', STALE_OFFER);
        if (l.action === 'add') on.add(l.billing_item_id);
        else on.delete(l.billing_item_id);
      }
      const [plan] =
        change.planId === null
          ? []
          : await tx
              .select()
              .from(customerPaymentPlans)
              .where(eq(customerPaymentPlans.id, change.planId))
              .for('update');
      if (!plan || plan.status !== 'active' || plan.recurringAmountCents !== change.currentMonthlyCents)
        throw new AppError('conflict', STALE_OFFER);
      await changeFeaturesIn(
        tx,
        merchant,
        change.customerId,
        {
          custstoreid: store.id,
          features: [...on],
          features_version: state.features.features_version,
          notify_merchant: false,
        },
        () => true,
      );
      if (plan.recurringAmountCents !== change.newMonthlyCents)
        await updatePlanIn(tx, merchant, change.customerId, plan.id, {
          version: plan.version,
          recurring_amount_cents: change.newMonthlyCents,
        });
      effectiveOn = effectiveDay(plan, today);
    }
    const status: FeatureChangeStatus = body.decision === 'accept' ? 'accepted' : 'declined';
    const [after] = await tx
      .update(featureChanges)
      .set({
        status,
        decidedAt: now,
        decidedIp: ip,
        effectiveOn,
        updatedAt: now,
        version: sql`${featureChanges.version} + 1`,
      })
      .where(eq(featureChanges.id, change.id))
      .returning();
    await writeAudit(tx, {
      ...actor,
      at: now,
      action: `feature_change_${status}`,
      entity: 'feature_change',
      entityId: change.id,
      customerId: change.customerId,
      before: auditOf(change),
      after: auditOf(after!, {
        decided_at: now.toISOString(),
        ip,
        user_agent: ctx.userAgent,
        link_token_id: link.id,
        new_monthly_cents: change.newMonthlyCents,
        effective_on: effectiveOn,
      }),
      requestId: ctx.requestId,
    });
    const [used] = await tx.select().from(linkTokens).where(eq(linkTokens.id, link.id));
    return toView(after!, storeName, used ?? link);
  });
}
