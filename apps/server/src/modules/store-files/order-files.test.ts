import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ORDER_STATUS, UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE_MESSAGE, type OrderDocument } from '@pos/domain';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createOrder } from '../../db/factories';
import { orders, storeFiles } from '../../db/schema';
import { uploadsDir } from '../../integrations/storage';
import { newMerchantOrder, terminalSerials } from '../../test/orders';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { listFiles, multipartBody, sampleFile, type MultipartPart } from '../../test/uploads';

/*
 * A new merchant's store files in the order flow (decision 160): uploaded to the order (the order rule), listed and read
 * there, and given to the store onboarding makes in the Complete transaction — through HTTP.
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const ADDRESS = {
  address1: '4 Birch Rd',
  address2: '',
  city: 'Austin',
  state: 'TX',
  zip: '73301',
  country: 'US' as const,
};

let taxIds = 0;
function newMerchant(): OrderDocument {
  return newMerchantOrder({
    firstName: 'Iris',
    lastName: 'Lane',
    email: 'iris@shop.example',
    federalTaxId: `77-40000${String(++taxIds).padStart(2, '0')}`,
    doingBusinessAs: 'Lane Goods',
    address: ADDRESS,
    terminals: 1,
    processorReference: 'pm_local_orderfiles4242',
  });
}

describe("a new merchant's store files on its order, the store's from Complete on (decision 160)", () => {
  let t: TestApp;
  let dataDir: string;
  let tok: Record<'rep' | 'viewer' | 'ops', string>;
  let draftId: number;
  let foreignId: number;

  const url = (orderId: number, token: string, rest = '') => `/api/orders/${orderId}/files${rest}/${token}`;
  const upload = (orderId: number, token: string, parts: MultipartPart[]) => {
    const body = multipartBody(parts);
    return t.request({ method: 'POST', url: url(orderId, token), payload: body.payload, headers: body.headers });
  };
  const file = (kind: string, filename: string, contentType: string, data: Buffer): MultipartPart[] => [
    { name: 'kind', data: kind },
    { name: 'file', filename, contentType, data },
  ];
  const count = async (sql: string) => Number((await t.database.query<{ n: string }>(sql))[0]!.n);
  const written = async () => ({
    files: await count('select count(*) as n from store_files'),
    uploads: await count('select count(*) as n from uploads'),
    audits: await count(`select count(*) as n from audit_log where entity in ('store_file', 'upload')`),
    bytes: listFiles(uploadsDir(dataDir)).length,
  });

  async function complete(orderId: number) {
    await t.database.db.update(orders).set({ status: ORDER_STATUS.INSTALLATION }).where(eq(orders.id, orderId));
    const [row] = await t.database.db.select().from(orders).where(eq(orders.id, orderId));
    return t.request({
      method: 'PUT',
      url: `/api/customers/ordernotes/${tok.ops}`,
      payload: {
        order_id: orderId,
        status: ORDER_STATUS.COMPLETE,
        version: row!.version,
        note: 'Installed.',
        terminal_serials: terminalSerials(1),
      },
    });
  }

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'pos-order-files-'));
    t = await createTestApp({ config: { dataDir } });
    const db = t.database.db;
    const [mine, theirs] = [
      await createAgent(db, { type: 'Distributor' }),
      await createAgent(db, { type: 'Distributor' }),
    ];
    tok = await signInStaff(t, {
      rep: { role: 'Distributor', agentId: mine.id, name: 'Rita Rep', email: 'rita@example.com' },
      // Order search read-only: reads an order's files, uploads and deletes none.
      viewer: 'Marketing',
      ops: 'Operations',
    });
    draftId = (await createOrder(db, { status: ORDER_STATUS.DRAFT, agentId: mine.id, document: newMerchant() })).id;
    foreignId = (await createOrder(db, { status: ORDER_STATUS.DRAFT, agentId: theirs.id, document: newMerchant() })).id;
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('a rep uploads a store picture and a business license to its draft order: listed on the order, no store yet, audited', async () => {
    const picture = await upload(draftId, tok.rep, file('store_picture', 'front.png', 'image/png', sampleFile('png')));
    expect(picture.statusCode, picture.body).toBe(201);
    expect(picture.json().info).toMatchObject({
      store_id: null,
      order_id: draftId,
      kind: 'store_picture',
      file_name: 'front.png',
      uploaded_by_email: 'rita@example.com',
      previewable: true,
    });
    const license = await upload(
      draftId,
      tok.rep,
      file('business_license', 'license.pdf', 'application/pdf', sampleFile('pdf')),
    );
    expect(license.statusCode, license.body).toBe(201);

    const list = await t.request({ method: 'GET', url: url(draftId, tok.viewer) });
    expect(list.statusCode, list.body).toBe(200);
    const items = list.json().info.items as Json[];
    expect(items.map((i) => [i.file_name, i.kind, i.store_id])).toEqual([
      ['license.pdf', 'business_license', null],
      ['front.png', 'store_picture', null],
    ]);
    // The bytes, as the store route serves them; the generic download reads the upload under the order rule.
    const png = items.find((i) => i.file_name === 'front.png')!;
    const bytes = await t.request({ method: 'GET', url: `${url(draftId, tok.rep, `/${png.id}`)}?size=thumb` });
    expect(bytes.statusCode).toBe(200);
    expect(bytes.headers['content-type']).toBe('image/png');
    expect(bytes.headers['content-disposition']).toMatch(/^inline; filename="front.png"/);
    expect(bytes.headers['x-content-type-options']).toBe('nosniff');
    const generic = await t.request({ method: 'GET', url: `/api/uploads/${png.upload_id}/${tok.rep}` });
    expect(generic.statusCode).toBe(200);
    const audits = await t.database.query<{ after: Json }>(
      `select after from audit_log where entity = 'store_file' and action = 'create' order by id`,
    );
    expect(audits.map((a) => a.after.order_id)).toEqual([draftId, draftId]);
  });

  it("another agent's order is 404 like a missing one — upload, list, download, delete — and nothing is written", async () => {
    const theirs = await upload(
      foreignId,
      (await signInStaff(t, { admin: 'Admin' })).admin,
      file('store_picture', 'theirs.png', 'image/png', sampleFile('png')),
    );
    expect(theirs.statusCode, theirs.body).toBe(201);
    const theirId = theirs.json().info.id as number;
    const before = await written();
    const refused = [
      await upload(foreignId, tok.rep, file('store_picture', 'x.png', 'image/png', sampleFile('png'))),
      await t.request({ method: 'GET', url: url(foreignId, tok.rep) }),
      await t.request({ method: 'GET', url: url(foreignId, tok.rep, `/${theirId}`) }),
      await t.request({ method: 'DELETE', url: url(foreignId, tok.rep, `/${theirId}`) }),
      // Its own order in the path does not reach another order's file.
      await t.request({ method: 'GET', url: url(draftId, tok.rep, `/${theirId}`) }),
      await t.request({ method: 'DELETE', url: url(draftId, tok.rep, `/${theirId}`) }),
    ];
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.body).not.toContain('theirs.png');
    }
    expect(refused[1]!.json().error.message).toBe(`Order ${foreignId} was not found.`);
    expect((await t.request({ method: 'GET', url: url(999_999, tok.rep) })).json().error.message).toBe(
      'Order 999999 was not found.',
    );
    expect(
      (await t.request({ method: 'GET', url: `/api/uploads/${theirs.json().info.upload_id}/${tok.rep}` })).statusCode,
    ).toBe(404);
    expect(await written()).toEqual(before);
  });

  it('refuses an unknown kind (400), a file over 5 MB (413) and content that is not what it says (415), storing nothing', async () => {
    const before = await written();
    const badKind = await upload(draftId, tok.rep, file('menu', 'front.png', 'image/png', sampleFile('png')));
    expect(badKind.statusCode, badKind.body).toBe(400);
    expect(badKind.json().error.fields.kind).toBeTruthy();
    const big = await upload(
      draftId,
      tok.rep,
      file('store_picture', 'big.png', 'image/png', sampleFile('png', UPLOAD_MAX_BYTES + 1)),
    );
    expect(big.statusCode, big.body).toBe(413);
    expect(big.json().error.fields.file).toBe(UPLOAD_TOO_LARGE_MESSAGE);
    const fake = await upload(
      draftId,
      tok.rep,
      file('business_license', 'l.pdf', 'application/pdf', sampleFile('png')),
    );
    expect(fake.statusCode, fake.body).toBe(415);
    expect(await written()).toEqual(before);
  });

  it('privileges: a read-only session reads but may not upload or delete (403); the rep removes a file it added', async () => {
    const extra = await upload(draftId, tok.rep, file('reseller_file', 'reseller.png', 'image/png', sampleFile('png')));
    expect(extra.statusCode, extra.body).toBe(201);
    const id = extra.json().info.id as number;
    expect(
      (await upload(draftId, tok.viewer, file('store_picture', 'v.png', 'image/png', sampleFile('png')))).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'DELETE', url: url(draftId, tok.viewer, `/${id}`) })).statusCode).toBe(403);
    const bytesBefore = listFiles(uploadsDir(dataDir)).length;
    const gone = await t.request({ method: 'DELETE', url: url(draftId, tok.rep, `/${id}`) });
    expect(gone.statusCode, gone.body).toBe(200);
    expect(listFiles(uploadsDir(dataDir)).length).toBe(bytesBefore - 1);
    const list = await t.request({ method: 'GET', url: url(draftId, tok.rep) });
    expect(list.json().info.items.map((i: Json) => i.file_name)).toEqual(['license.pdf', 'front.png']);
  });

  it("Complete gives the order's files to the new store: listed on its panel, read by the rep, no longer deleted through the order", async () => {
    const done = await complete(draftId);
    expect(done.statusCode, done.body).toBe(200);
    const [order] = await t.database.db.select().from(orders).where(eq(orders.id, draftId));
    const storeId = order!.storeId!;
    expect(storeId).toBeGreaterThan(0);

    const onStore = await t.request({ method: 'GET', url: `/api/stores/${storeId}/files/${tok.rep}` });
    expect(onStore.statusCode, onStore.body).toBe(200);
    const items = onStore.json().info.items as Json[];
    expect(items.map((i) => [i.file_name, i.store_id, i.order_id])).toEqual([
      ['license.pdf', storeId, draftId],
      ['front.png', storeId, draftId],
    ]);
    // The upload is the store's now: the rep (who sees the store through its order) still reads it.
    const generic = await t.request({ method: 'GET', url: `/api/uploads/${items[1]!.upload_id}/${tok.rep}` });
    expect(generic.statusCode).toBe(200);
    // The order still lists what it brought in; deleting is the customer page's from now on.
    const onOrder = await t.request({ method: 'GET', url: url(draftId, tok.rep) });
    expect(onOrder.json().info.items).toHaveLength(2);
    const refused = await t.request({ method: 'DELETE', url: url(draftId, tok.rep, `/${items[0]!.id}`) });
    expect(refused.statusCode, refused.body).toBe(409);
    expect(refused.json().error.message).toMatch(/customer page/);
    // One audit entry per file moved, under the new customer; the onboarding entry counts them.
    const moved = await t.database.query<{ customer_id: number | null }>(
      `select customer_id from audit_log where entity = 'store_file' and action = 'update'`,
    );
    expect(moved.map((m) => m.customer_id)).toEqual([order!.customerId, order!.customerId]);
    const onboard = await t.database.query<{ after: Json }>(
      `select after from audit_log where action = 'order.onboard' and entity_id = '${draftId}'`,
    );
    expect(onboard[0]!.after.store_files).toBe(2);
    // A file added to the order after Complete goes to its store at once.
    const late = await upload(draftId, tok.rep, file('store_picture', 'late.png', 'image/png', sampleFile('png')));
    expect(late.statusCode, late.body).toBe(201);
    expect(late.json().info).toMatchObject({ store_id: storeId, order_id: draftId });
    const rows = await t.database.db.select().from(storeFiles).where(eq(storeFiles.orderId, draftId));
    expect(rows.every((r) => r.storeId === storeId)).toBe(true);
  });
});
