import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { and, eq } from 'drizzle-orm';
import { createStore, setTaxRate } from '../../db/factories';
import { auditLog, taxCertificates, uploads } from '../../db/schema';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { multipartBody, sampleFile } from '../../test/uploads';

/*
 * Taxes (issue 17 points 5 and 6, decision 127) through HTTP. Today is 2026-11-22 (the test clock).
 *   GET/POST /api/admin/taxes/{token}; GET/POST /api/taxcertificates/{token}, …/upload/{token}, …/{id}/revoke/{token};
 *   and their effect on POST /api/customers/taxes/fetch/{token}.
 */

let t: TestApp;
let tok: Record<'admin' | 'care' | 'ar' | 'marketing', string>;
let azStore: { id: number; customerId: number };
let txStore: { id: number; customerId: number };
/** A well-formed upload id that names no upload. */
const NO_SUCH_UPLOAD = 'bm8tc3VjaC11cGxvYWQtYXQtYWxsLTAw';

beforeAll(async () => {
  t = await createTestApp();
  const db = t.database.db;
  await setTaxRate(db, { country: 'US', state: 'AZ', rateBasisPoints: 560, label: 'Arizona TPT' });
  await setTaxRate(db, { country: 'US', state: 'TX', rateBasisPoints: 625 });
  await setTaxRate(db, { country: 'CA', state: 'BC', rateBasisPoints: 1200, label: 'GST + PST' });
  azStore = await createStore(db, { country: 'US', state: 'AZ' });
  txStore = await createStore(db, { country: 'US', state: 'TX' });
  tok = await signInStaff(t, {
    admin: 'Admin',
    care: 'Customer Care',
    ar: 'AR Team',
    marketing: 'Marketing',
  });
}, 60_000);
afterAll(() => t.close());

const fetchTax = async (body: Record<string, unknown>, token = tok.care) =>
  t.request({ method: 'POST', url: `/api/customers/taxes/fetch/${token}`, payload: body });

async function uploadFile(token = tok.care, data = sampleFile('pdf'), filename = 'tpt.pdf') {
  const body = multipartBody([{ name: 'certificate', filename, contentType: 'application/pdf', data }]);
  return t.request({
    method: 'POST',
    url: `/api/taxcertificates/upload/${token}`,
    payload: body.payload,
    headers: body.headers,
  });
}

describe('admin tax rates', () => {
  it('GET lists every state and province with the rate in force today, as components', async () => {
    const res = await t.request({ method: 'GET', url: `/api/admin/taxes/${tok.admin}` });
    expect(res.statusCode, res.body).toBe(200);
    const info = res.json().info;
    expect(info.today).toBe('2026-11-22');
    const bc = info.states.find((s: { state: string }) => s.state === 'BC');
    expect(bc).toMatchObject({
      country: 'CA',
      state_name: 'British Columbia',
      current: {
        effective_on: '2000-01-01',
        rate_basis_points: 1200,
        components: [
          { component: 'GST', rate_basis_points: 500 },
          { component: 'PST', rate_basis_points: 700 },
        ],
      },
      scheduled: [],
    });
    expect(info.states.find((s: { state: string }) => s.state === 'NY').current).toBeNull();
  });

  it('POST schedules a version; taxes/fetch uses the rate in force on the order date', async () => {
    const res = await t.request({
      method: 'POST',
      url: `/api/admin/taxes/${tok.admin}`,
      payload: {
        country: 'US',
        state: 'TX',
        effective_on: '2026-12-01',
        components: [{ component: 'STATE', rate_basis_points: 700 }],
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().info).toMatchObject({
      state: 'TX',
      current: { effective_on: '2000-01-01', rate_basis_points: 625 },
      scheduled: [{ effective_on: '2026-12-01', rate_basis_points: 700, created_by: 'admin@example.com' }],
    });
    const line = [{ amount_cents: 100_00 }];
    const today = await fetchTax({ state: 'TX', country: 'US', lines: line });
    expect(today.json().info).toMatchObject({ date: '2026-11-22', rate_basis_points: 625, tax_cents: 6_25 });
    const before = await fetchTax({ state: 'TX', country: 'US', date: '2026-11-30', lines: line });
    expect(before.json().info).toMatchObject({ rate_basis_points: 625, tax_cents: 6_25 });
    const from = await fetchTax({ state: 'TX', country: 'US', date: '2026-12-01', lines: line });
    expect(from.json().info).toMatchObject({ effective_on: '2026-12-01', rate_basis_points: 700, tax_cents: 7_00 });
    const [audit] = await t.database.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.entity, 'tax_rate'), eq(auditLog.entityId, 'US-TX-2026-12-01')));
    expect(audit).toMatchObject({ action: 'create', actorEmail: 'admin@example.com' });
  });

  it('400: a date in the past, a component foreign to the country, HST with GST', async () => {
    const post = (payload: Record<string, unknown>) =>
      t.request({ method: 'POST', url: `/api/admin/taxes/${tok.admin}`, payload });
    const past = await post({
      country: 'US',
      state: 'TX',
      effective_on: '2026-11-21',
      components: [{ component: 'STATE', rate_basis_points: 700 }],
    });
    expect(past.statusCode).toBe(400);
    expect(past.json().error.fields.effective_on).toMatch(/today \(2026-11-22\) or later/);
    const foreign = await post({
      country: 'US',
      state: 'TX',
      effective_on: '2026-12-01',
      components: [{ component: 'GST', rate_basis_points: 500 }],
    });
    expect(foreign.statusCode).toBe(400);
    expect(foreign.json().error.fields['components.0.component']).toMatch(/not a US state tax/);
    const both = await post({
      country: 'CA',
      state: 'ON',
      effective_on: '2026-12-01',
      components: [
        { component: 'HST', rate_basis_points: 1300 },
        { component: 'GST', rate_basis_points: 500 },
      ],
    });
    expect(both.statusCode).toBe(400);
    expect(both.json().error.fields.components).toMatch(/HST replaces GST and PST/);
  });

  it('404 for an unknown state; 403 for anyone but Admin', async () => {
    const res = await t.request({
      method: 'POST',
      url: `/api/admin/taxes/${tok.admin}`,
      payload: {
        country: 'US',
        state: 'ZZ',
        effective_on: '2026-12-01',
        components: [{ component: 'STATE', rate_basis_points: 1 }],
      },
    });
    expect(res.statusCode).toBe(404);
    expect(res.json().error.fields.state).toBe('There is no state ZZ.');
    for (const who of [tok.care, tok.ar]) {
      expect((await t.request({ method: 'GET', url: `/api/admin/taxes/${who}` })).statusCode).toBe(403);
      const post = await t.request({
        method: 'POST',
        url: `/api/admin/taxes/${who}`,
        payload: {
          country: 'US',
          state: 'TX',
          effective_on: '2026-12-01',
          components: [{ component: 'STATE', rate_basis_points: 1 }],
        },
      });
      expect(post.statusCode).toBe(403);
    }
  });
});

describe('Arizona certificates', () => {
  it('a valid certificate removes the tax of the store’s sale until it expires; it is listed as expiring', async () => {
    const line = [{ amount_cents: 1000_00 }];
    expect((await fetchTax({ store_id: azStore.id, lines: line })).json().info).toMatchObject({
      exempt: false,
      tax_cents: 56_00,
    });
    const up = await uploadFile();
    expect(up.statusCode, up.body).toBe(201);
    const res = await t.request({
      method: 'POST',
      url: `/api/taxcertificates/${tok.care}`,
      payload: {
        store_id: azStore.id,
        kind: 'TPT',
        certificate_number: 'TPT-12345678',
        expires_on: '2026-12-10',
        upload_id: up.json().info.upload_id,
      },
    });
    expect(res.statusCode, res.body).toBe(201);
    const cert = res.json().info;
    expect(cert).toMatchObject({
      store_id: azStore.id,
      customer_id: azStore.customerId,
      kind: 'TPT',
      certificate_number: 'TPT-12345678',
      status: 'expiring',
      file_name: 'tpt.pdf',
      created_by: 'care@example.com',
    });
    const exempt = await fetchTax({ store_id: azStore.id, lines: line });
    expect(exempt.json().info).toMatchObject({ exempt: true, tax_cents: 0, total_cents: 1000_00 });
    // The last valid day, and the day after.
    expect((await fetchTax({ store_id: azStore.id, date: '2026-12-10', lines: line })).json().info.tax_cents).toBe(0);
    expect((await fetchTax({ store_id: azStore.id, date: '2026-12-11', lines: line })).json().info.tax_cents).toBe(
      56_00,
    );
    // Without the store (state + country only) there is no certificate to apply.
    expect((await fetchTax({ state: 'AZ', country: 'US', lines: line })).json().info.tax_cents).toBe(56_00);

    const expiring = await t.request({ method: 'GET', url: `/api/taxcertificates/${tok.ar}?expiring=30` });
    expect(expiring.statusCode, expiring.body).toBe(200);
    expect(expiring.json().info.items.map((c: { id: number }) => c.id)).toContain(cert.id);
    const within10 = await t.request({ method: 'GET', url: `/api/taxcertificates/${tok.ar}?expiring=10` });
    expect(within10.json().info.items.map((c: { id: number }) => c.id)).not.toContain(cert.id);
    const ofStore = await t.request({ method: 'GET', url: `/api/taxcertificates/${tok.ar}?store_id=${azStore.id}` });
    expect(ofStore.json().info.items).toEqual([expect.objectContaining({ id: cert.id })]);

    const revoke = await t.request({ method: 'POST', url: `/api/taxcertificates/${cert.id}/revoke/${tok.care}` });
    expect(revoke.statusCode, revoke.body).toBe(200);
    expect(revoke.json().info).toMatchObject({ status: 'revoked' });
    expect((await fetchTax({ store_id: azStore.id, lines: line })).json().info.tax_cents).toBe(56_00);
    const again = await t.request({ method: 'POST', url: `/api/taxcertificates/${cert.id}/revoke/${tok.care}` });
    expect(again.statusCode).toBe(409);
    const audits = await t.database.db.select().from(auditLog).where(eq(auditLog.entity, 'tax_certificate'));
    expect(audits.map((a) => [a.action, a.customerId])).toEqual([
      ['create', azStore.customerId],
      ['revoke', azStore.customerId],
    ]);
  });

  it('400: a store outside Arizona, an expired date; 404 upload_id: a file already used, another user’s; not a PDF → 415', async () => {
    const up = (await uploadFile()).json().info.upload_id as string;
    const post = (payload: Record<string, unknown>) =>
      t.request({ method: 'POST', url: `/api/taxcertificates/${tok.care}`, payload });
    const base = {
      store_id: azStore.id,
      kind: 'RESALE',
      certificate_number: 'R-1',
      expires_on: '2027-06-30',
      upload_id: up,
    };
    const texas = await post({ ...base, store_id: txStore.id });
    expect(texas.statusCode).toBe(400);
    expect(texas.json().error.fields.store_id).toMatch(/not in Arizona/);
    const expired = await post({ ...base, expires_on: '2026-11-21' });
    expect(expired.statusCode).toBe(400);
    expect(expired.json().error.fields.expires_on).toMatch(/expired on 2026-11-21/);
    const bad = await post({ ...base, certificate_number: 'no spaces!' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().error.fields.certificate_number).toBe('Letters, digits and dashes only.');
    expect((await post(base)).statusCode).toBe(201);
    // A file already on a certificate, or another user's upload, is answered like a missing file (decision 140).
    const reused = await post(base);
    expect(reused.statusCode).toBe(404);
    expect(reused.json().error).toEqual({
      code: 'not_found',
      message: `Upload ${up} was not found.`,
      fields: { upload_id: 'This file was not found: upload it again.' },
    });
    const adminUpload = (await uploadFile(tok.admin)).json().info.upload_id as string;
    const foreign = await post({ ...base, upload_id: adminUpload });
    expect(foreign.statusCode).toBe(404);
    expect(foreign.json().error).toEqual({
      code: 'not_found',
      message: `Upload ${adminUpload} was not found.`,
      fields: { upload_id: 'This file was not found: upload it again.' },
    });
    const [adminRow] = await t.database.db.select().from(uploads).where(eq(uploads.publicId, adminUpload));
    expect(adminRow!.ownerType).toBeNull();
    // A sequential id is not an upload id at all.
    const numeric = await post({ ...base, upload_id: adminRow!.id });
    expect(numeric.statusCode).toBe(400);
    expect(numeric.json().error.fields).toHaveProperty('upload_id');
    const notPdf = await uploadFile(tok.care, Buffer.from('just text, not a pdf'));
    expect(notPdf.statusCode).toBe(415);
    const query = await t.request({ method: 'GET', url: `/api/taxcertificates/${tok.care}` });
    expect(query.statusCode).toBe(400);
  });

  it('404: unknown store, upload or certificate', async () => {
    const list = await t.request({ method: 'GET', url: `/api/taxcertificates/${tok.care}?store_id=999999` });
    expect(list.statusCode).toBe(404);
    const post = await t.request({
      method: 'POST',
      url: `/api/taxcertificates/${tok.care}`,
      payload: {
        store_id: 999_999,
        kind: 'TPT',
        certificate_number: 'T-1',
        expires_on: '2027-01-01',
        upload_id: NO_SUCH_UPLOAD,
      },
    });
    expect(post.statusCode).toBe(404);
    expect(post.json().error.fields.store_id).toBe('There is no store 999999.');
    const noFile = await t.request({
      method: 'POST',
      url: `/api/taxcertificates/${tok.care}`,
      payload: {
        store_id: azStore.id,
        kind: 'TPT',
        certificate_number: 'T-1',
        expires_on: '2027-01-01',
        upload_id: NO_SUCH_UPLOAD,
      },
    });
    expect(noFile.statusCode).toBe(404);
    expect(noFile.json().error.fields).toEqual({ upload_id: 'This file was not found: upload it again.' });
    const revoke = await t.request({ method: 'POST', url: `/api/taxcertificates/999999/revoke/${tok.care}` });
    expect(revoke.statusCode).toBe(404);
  });

  it('403: reading needs customer details, recording and revoking the edit privilege', async () => {
    expect(
      (await t.request({ method: 'GET', url: `/api/taxcertificates/${tok.marketing}?expiring=30` })).statusCode,
    ).toBe(403);
    expect((await uploadFile(tok.ar)).statusCode).toBe(403);
    const post = await t.request({
      method: 'POST',
      url: `/api/taxcertificates/${tok.ar}`,
      payload: {
        store_id: azStore.id,
        kind: 'TPT',
        certificate_number: 'T-1',
        expires_on: '2027-01-01',
        upload_id: NO_SUCH_UPLOAD,
      },
    });
    expect(post.statusCode).toBe(403);
    const [cert] = await t.database.db.select({ id: taxCertificates.id }).from(taxCertificates).limit(1);
    expect(
      (await t.request({ method: 'POST', url: `/api/taxcertificates/${cert!.id}/revoke/${tok.ar}` })).statusCode,
    ).toBe(403);
  });
});
