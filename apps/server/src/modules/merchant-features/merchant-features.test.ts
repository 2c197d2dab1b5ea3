import { MERCHANT_LINK_UNKNOWN } from '@pos/domain';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCatalogue, createCustomerBillingItem, createPaymentPlan, createStore } from '../../db/factories';
import { auditLog, customerPaymentPlans, featureChanges, linkTokens } from '../../db/schema';
import { JOB_QUEUE } from '@pos/domain';
import { defineQueues, enqueueJob, startWorkers } from '../../jobs/registry';
import { issueLinkToken, PAYMENT_UPDATE_LINK_TTL_MS } from '../../lib/link-tokens';
import { hashToken } from '../../lib/tokens';
import { waitForJob } from '../../test/jobs';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

/*
 * The merchant's feature-change page through HTTP (issue 16 point 6, decision 123): staff prepare a change, the job
 * e-mails the link, the merchant sees it and accepts (features switched, plan amount moved, stamped with time and IP)
 * or declines; used, expired, replaced and foreign links give nothing; stale versions and decided changes are 409.
 */

/** Catalogue ids (decision 017): 201 Advanced Data, 202 Customer Tabs, 203 E-commerce, 207 No Ads. */
const ADVANCED_DATA = 201;
const CUSTOMER_TABS = 202;
const E_COMMERCE = 203;
const NO_ADS = 207;

interface FeatureInfo {
  features_version: string;
  features: Array<{ billing_item_id: number; name: string; enabled: boolean; price_cents: number | null }>;
}

let t: TestApp;
let editor: string;
let limited: string;
let viewer: string;
let admin: string;

beforeAll(async () => {
  t = await createTestApp();
  ({ editor, limited, viewer, admin } = await signInStaff(t, {
    editor: 'Customer Support',
    limited: 'Customer Service',
    viewer: 'AR Team',
    admin: 'Admin',
  }));
  await createCatalogue(t.database.db);
  await startWorkers(t.app.ctx.queue, t.app.ctx, { pollingIntervalSeconds: 0.5 });
}, 90_000);
afterAll(() => t.close());

/** A US store on a $79 monthly plan (next billing Dec 1) with E-commerce ($25) and No Ads ($9) on. */
async function storeWithFeatures() {
  const db = t.database.db;
  const store = await createStore(db, { doingBusinessAs: 'Corner Deli', country: 'US' });
  const plan = await createPaymentPlan(db, {
    storeId: store.id,
    kind: 'monthly',
    recurringAmountCents: 79_00,
    nextBillingOn: '2026-12-01',
  });
  for (const [billingItemId, unitPriceCents] of [
    [E_COMMERCE, 25_00],
    [NO_ADS, 9_00],
  ] as const) {
    await createCustomerBillingItem(db, {
      storeId: store.id,
      planId: plan.id,
      billingItemId,
      unitPriceCents,
      startsOn: '2025-01-01',
    });
  }
  return { store, plan, customerId: store.customerId };
}

const featuresUrl = (customerId: number, token = editor) => `/api/customers/${customerId}/${token}/features`;
async function features(customerId: number, storeId: number): Promise<FeatureInfo> {
  const res = await t.request({ method: 'GET', url: `${featuresUrl(customerId)}?custstoreid=${storeId}` });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().info;
}
const enabled = (info: FeatureInfo) => info.features.filter((f) => f.enabled).map((f) => f.billing_item_id);
const priceOf = (info: FeatureInfo, id: number) => info.features.find((f) => f.billing_item_id === id)!.price_cents!;

const changesUrl = (customerId: number, token = editor) => `/api/customers/${customerId}/${token}/featurechanges`;
function prepare(customerId: number, payload: object, token = editor) {
  return t.request({ method: 'POST', url: changesUrl(customerId, token), payload });
}

/** Prepare a change (the features that should be on) and read the link from the e-mail the job sent. */
async function send(customerId: number, storeId: number, wanted: number[]) {
  const info = await features(customerId, storeId);
  const res = await prepare(customerId, {
    custstoreid: storeId,
    features: wanted,
    features_version: info.features_version,
  });
  expect(res.statusCode, res.body).toBe(201);
  const change = res.json().info;
  const job = await waitForJob(t, admin, change.email_job_id);
  expect(job.state, JSON.stringify(job)).toBe('completed');
  const [mail] = await t.database.query<{ to: string; subject: string; text: string; links: string[] }>(
    `select "to", subject, text, links from mail_log where template = 'feature_change_offer' and related_id = $1 order by id desc limit 1`,
    [String(storeId)],
  );
  const prefix = `${t.app.ctx.config.publicUrl}/#/customer/features/`;
  const link = mail!.links[0]!;
  expect(link.startsWith(prefix)).toBe(true);
  const tok = link.slice(prefix.length);
  // The job's output (visible to staff) never carries the token.
  expect(JSON.stringify(job.output)).not.toContain(tok);
  expect(job.output).toMatchObject({ featureChangeId: change.feature_change_id, to: mail!.to });
  return { change, mail: mail!, tok };
}

const view = (tok: string) => t.request({ method: 'GET', url: `/api/public/features/${tok}` });
const decide = (tok: string, payload: object, ip = '203.0.113.7') =>
  t.request({ method: 'POST', url: `/api/public/features/${tok}`, payload, remoteAddress: ip });

describe('staff prepare a feature change: POST …/featurechanges', () => {
  it('records the change with the monthly amounts, switches nothing yet, and e-mails the merchant a 14-day link', async () => {
    const { store, plan, customerId } = await storeWithFeatures();
    const before = await features(customerId, store.id);
    const advanced = priceOf(before, ADVANCED_DATA);
    const { change, mail, tok } = await send(customerId, store.id, [E_COMMERCE, ADVANCED_DATA]);

    expect(change).toMatchObject({
      customer_id: customerId,
      store_id: store.id,
      plan_id: plan.id,
      status: 'sent',
      currency: 'USD',
      current_monthly_cents: 79_00,
      new_monthly_cents: 79_00 + advanced - 9_00,
      effective_on: '2026-12-01',
      version: 1,
    });
    expect(change.changes).toEqual([
      { billing_item_id: ADVANCED_DATA, name: 'Advanced Data', action: 'add', monthly_cents: advanced },
      { billing_item_id: NO_ADS, name: 'No Ads', action: 'remove', monthly_cents: 9_00 },
    ]);
    // Nothing switched until the merchant accepts.
    expect(enabled(await features(customerId, store.id))).toEqual([E_COMMERCE, NO_ADS]);

    expect(mail.subject).toBe('Please review the feature change for Corner Deli');
    expect(mail.text).toContain('Add: Advanced Data');
    expect(mail.text).toContain('Remove: No Ads ($9.00 a month)');
    expect(mail.text).toContain('from $79.00 to');
    const [link] = await t.database.db
      .select()
      .from(linkTokens)
      .where(eq(linkTokens.tokenHash, hashToken(tok)));
    expect(link).toMatchObject({
      purpose: 'features',
      subjectType: 'feature_change',
      subjectId: String(change.feature_change_id),
    });
    expect(link!.expiresAt.getTime() - t.clock.now().getTime()).toBe(14 * 24 * 3600_000);

    const audit = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'feature_change'), eq(auditLog.entityId, String(change.feature_change_id))));
    expect(audit.map((a) => a.action)).toEqual(['feature_change_prepared', 'feature_change_link_sent']);
    expect(audit[0]!.actorEmail).toBeTruthy();

    const list = await t.request({ method: 'GET', url: `${changesUrl(customerId)}?custstoreid=${store.id}` });
    expect(list.statusCode).toBe(200);
    expect(list.json().info.items.map((i: { feature_change_id: number }) => i.feature_change_id)).toEqual([
      change.feature_change_id,
    ]);
  });

  it('400 with fields, 403 by privilege, 404 for another customer, 409 on stale features', async () => {
    const { store, customerId } = await storeWithFeatures();
    const info = await features(customerId, store.id);
    const base = { custstoreid: store.id, features_version: info.features_version };

    const badBody = await prepare(customerId, { custstoreid: 'x', features: 'all' });
    expect(badBody.statusCode).toBe(400);
    expect(Object.keys(badBody.json().error.fields)).toEqual(
      expect.arrayContaining(['custstoreid', 'features', 'features_version']),
    );
    const nothing = await prepare(customerId, { ...base, features: enabled(info) });
    expect(nothing.statusCode).toBe(400);
    expect(nothing.json().error.fields.features).toMatch(/Nothing changes/);
    const notFeature = await prepare(customerId, { ...base, features: [999_999] });
    expect(notFeature.statusCode).toBe(400);
    expect(notFeature.json().error.fields.features).toMatch(/Not a feature: 999999/);

    const noPlanStore = await createStore(t.database.db, { customerId });
    const noPlan = await prepare(customerId, {
      custstoreid: noPlanStore.id,
      features: [NO_ADS],
      features_version: (await features(customerId, noPlanStore.id)).features_version,
    });
    expect(noPlan.statusCode).toBe(400);
    expect(noPlan.json().error.fields.custstoreid).toMatch(/no active monthly plan/);

    expect((await prepare(customerId, { ...base, features: [E_COMMERCE] }, viewer)).statusCode).toBe(403);
    // customer_features_limited: No Ads may change, E-commerce may not.
    const limitedRes = await prepare(customerId, { ...base, features: [NO_ADS] }, limited);
    expect(limitedRes.statusCode).toBe(403);
    expect(limitedRes.json().error.message).toMatch(/'E-commerce'/);

    const other = await createStore(t.database.db);
    const foreign = await prepare(customerId, { ...base, custstoreid: other.id, features: [E_COMMERCE] });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.fields.custstoreid).toMatch(/is not a store of customer/);

    const stale = await prepare(customerId, { ...base, features_version: 'fv_stale', features: [E_COMMERCE] });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('version_conflict');
    expect(await t.database.db.select().from(featureChanges).where(eq(featureChanges.storeId, store.id))).toEqual([]);
  });
});

describe("the merchant's link: GET/POST /api/public/features/{tok}", () => {
  it('shows the change; accepting applies it through the features and plan edits, stamped with time and IP, once', async () => {
    const { store, plan, customerId } = await storeWithFeatures();
    const advanced = priceOf(await features(customerId, store.id), ADVANCED_DATA);
    const { change, tok } = await send(customerId, store.id, [E_COMMERCE, ADVANCED_DATA]);

    const page = await view(tok);
    expect(page.statusCode, page.body).toBe(200);
    expect(page.json().info).toEqual({
      store_name: 'Corner Deli',
      changes: change.changes,
      current_monthly_cents: 79_00,
      new_monthly_cents: 79_00 + advanced - 9_00,
      currency: 'USD',
      effective_on: '2026-12-01',
      status: 'sent',
      decided_at: null,
      expires_at: '2026-12-06T12:00:00.000Z',
      version: 1,
    });

    const badBody = await decide(tok, { decision: 'maybe' });
    expect(badBody.statusCode).toBe(400);
    expect(Object.keys(badBody.json().error.fields).sort()).toEqual(['decision', 'version']);
    const stale = await decide(tok, { decision: 'accept', version: 7 });
    expect(stale.statusCode).toBe(409);
    expect(stale.json().error.code).toBe('version_conflict');

    const accepted = await decide(tok, { decision: 'accept', version: 1 });
    expect(accepted.statusCode, accepted.body).toBe(200);
    expect(accepted.json().info).toMatchObject({
      status: 'accepted',
      decided_at: t.clock.now().toISOString(),
      version: 2,
    });
    // The features are switched and the plan's monthly amount moved.
    expect(enabled(await features(customerId, store.id))).toEqual([ADVANCED_DATA, E_COMMERCE]);
    const [after] = await t.database.db.select().from(customerPaymentPlans).where(eq(customerPaymentPlans.id, plan.id));
    expect(after!.recurringAmountCents).toBe(79_00 + advanced - 9_00);
    const [row] = await t.database.db
      .select()
      .from(featureChanges)
      .where(eq(featureChanges.id, change.feature_change_id));
    expect(row).toMatchObject({ status: 'accepted', decidedIp: '203.0.113.7' });
    const [link] = await t.database.db
      .select()
      .from(linkTokens)
      .where(eq(linkTokens.tokenHash, hashToken(tok)));
    expect(link!.usedAt).not.toBeNull();

    // The audit trail names the merchant, with the IP; the feature and plan edits are the merchant's too.
    const entries = await t.database.db.select().from(auditLog).where(eq(auditLog.customerId, customerId));
    const decided = entries.find((e) => e.action === 'feature_change_accepted')!;
    expect(decided).toMatchObject({ actorType: 'merchant', actorId: `store:${store.id}` });
    expect(decided.after).toMatchObject({ status: 'accepted', ip: '203.0.113.7' });
    expect(entries.filter((e) => e.action === 'feature_on' || e.action === 'feature_off')).toHaveLength(2);
    expect(
      entries.find((e) => e.entity === 'customer_payment_plan' && e.action === 'update' && e.actorType === 'merchant'),
    ).toBeDefined();

    // Once: a second decision is 409 saying what happened; the page itself is gone (410).
    const again = await decide(tok, { decision: 'accept', version: 2 });
    expect(again.statusCode).toBe(409);
    expect(again.json().error.message).toMatch(/You already accepted this feature change on 2026-11-22/);
    expect((await view(tok)).statusCode).toBe(410);
  });

  it('declining changes nothing but the change; the link is used up', async () => {
    const { store, plan, customerId } = await storeWithFeatures();
    const { change, tok } = await send(customerId, store.id, [E_COMMERCE, NO_ADS, CUSTOMER_TABS]);
    const res = await decide(tok, { decision: 'decline', version: 1 });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().info.status).toBe('declined');
    expect(enabled(await features(customerId, store.id))).toEqual([E_COMMERCE, NO_ADS]);
    const [p] = await t.database.db.select().from(customerPaymentPlans).where(eq(customerPaymentPlans.id, plan.id));
    expect(p!.recurringAmountCents).toBe(79_00);
    const [row] = await t.database.db
      .select()
      .from(featureChanges)
      .where(eq(featureChanges.id, change.feature_change_id));
    expect(row).toMatchObject({ status: 'declined', decidedIp: '203.0.113.7' });
    expect((await decide(tok, { decision: 'accept', version: 2 })).statusCode).toBe(409);
  });

  it('unknown and foreign-purpose links 404; replaced, canceled and expired links 410 (or 409 once withdrawn)', async () => {
    const { store, customerId } = await storeWithFeatures();
    expect((await view('Q'.repeat(43))).statusCode).toBe(404);
    expect((await view('short')).statusCode).toBe(400);
    // A payment link of the same store is no feature-change link.
    const paymentLink = await t.database.db.transaction((tx) =>
      issueLinkToken(tx, {
        purpose: 'payment_update',
        subjectType: 'store',
        subjectId: store.id,
        now: t.clock.now(),
        ttlMs: PAYMENT_UPDATE_LINK_TTL_MS,
      }),
    );
    const foreign = await view(paymentLink.token);
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error.message).toBe(MERCHANT_LINK_UNKNOWN);
    expect((await decide(paymentLink.token, { decision: 'accept', version: 1 })).statusCode).toBe(404);

    // A newer change replaces the one waiting: its link stops, its change is canceled.
    const first = await send(customerId, store.id, [E_COMMERCE]);
    const second = await send(customerId, store.id, [E_COMMERCE, NO_ADS, ADVANCED_DATA]);
    const replaced = await view(first.tok);
    expect(replaced.statusCode).toBe(410);
    expect(replaced.json().error.message).toMatch(/expired or was replaced/);
    const withdrawn = await decide(first.tok, { decision: 'accept', version: 1 });
    expect(withdrawn.statusCode).toBe(409);
    expect(withdrawn.json().error.message).toMatch(/withdrawn by our team/);

    // Staff cancel the second (stale version 409 first); its link stops.
    const cancelUrl = `${changesUrl(customerId)}/${second.change.feature_change_id}/cancel`;
    expect((await t.request({ method: 'POST', url: cancelUrl, payload: { version: 9 } })).statusCode).toBe(409);
    const canceled = await t.request({ method: 'POST', url: cancelUrl, payload: { version: 1 } });
    expect(canceled.statusCode, canceled.body).toBe(200);
    expect(canceled.json().info.status).toBe('canceled');
    expect((await view(second.tok)).statusCode).toBe(410);
    expect((await t.request({ method: 'POST', url: cancelUrl, payload: { version: 2 } })).statusCode).toBe(409);

    // Expired after 14 days.
    const third = await send(customerId, store.id, [E_COMMERCE]);
    t.clock.advance(14 * 24 * 3600_000 + 1);
    try {
      expect((await view(third.tok)).statusCode).toBe(410);
      expect((await decide(third.tok, { decision: 'accept', version: 1 })).statusCode).toBe(410);
    } finally {
      t.clock.advance(-(14 * 24 * 3600_000 + 1));
    }
  });

  it('an offer that no longer holds (features switched meanwhile) is 409 and changes nothing; the link still works', async () => {
    const { store, customerId } = await storeWithFeatures();
    const { tok } = await send(customerId, store.id, [E_COMMERCE, NO_ADS, ADVANCED_DATA]);
    const info = await features(customerId, store.id);
    const direct = await t.request({
      method: 'PUT',
      url: featuresUrl(customerId),
      payload: {
        custstoreid: store.id,
        features: [E_COMMERCE, NO_ADS, ADVANCED_DATA],
        features_version: info.features_version,
      },
    });
    expect(direct.statusCode, direct.body).toBe(200);
    const res = await decide(tok, { decision: 'accept', version: 1 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toMatch(/changed since this offer was prepared/);
    expect((await view(tok)).statusCode).toBe(200);
  });
});

describe('the e-mail job of a prepared change', () => {
  it('mails nothing for a change canceled before the job ran', async () => {
    const { store, plan, customerId } = await storeWithFeatures();
    const now = t.clock.now();
    const [row] = await t.database.db
      .insert(featureChanges)
      .values({
        customerId,
        storeId: store.id,
        planId: plan.id,
        changes: [{ billing_item_id: ADVANCED_DATA, name: 'Advanced Data', action: 'add', monthly_cents: 15_00 }],
        currentMonthlyCents: 79_00,
        newMonthlyCents: 94_00,
        currency: 'USD',
        effectiveOn: '2026-12-01',
        status: 'canceled',
        createdByEmail: 'cs@example.com',
        createdAt: now,
        updatedAt: now,
      })
      .returning();
    await defineQueues(t.app.ctx.queue, { queues: [JOB_QUEUE.featureChangeEmail] });
    const jobId = await enqueueJob(
      t.app.ctx.queue,
      JOB_QUEUE.featureChangeEmail,
      {
        input: {
          storeid: store.id,
          features: [{ billingitemid: ADVANCED_DATA, action: 'add' }],
          feature_change_id: row!.id,
        },
        requestedBy: { actorType: 'system', actorId: 'test' },
        requestId: null,
      },
      t.database.db,
    );
    t.app.ctx.queue.wake(JOB_QUEUE.featureChangeEmail);
    const job = await waitForJob(t, admin, jobId!);
    expect(job).toMatchObject({ state: 'completed', output: { skipped: 'the change is canceled' } });
    const mails = await t.database.query(`select id from mail_log where related_id = $1`, [String(store.id)]);
    expect(mails).toEqual([]);
    const links = await t.database.db
      .select()
      .from(linkTokens)
      .where(and(eq(linkTokens.purpose, 'features'), eq(linkTokens.subjectId, String(row!.id))));
    expect(links).toEqual([]);
  });
});
