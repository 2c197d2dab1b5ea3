import { createHash, randomBytes, randomUUID } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UPLOAD_MAX_BYTES, UPLOAD_PUBLIC_ID_PATTERN, UPLOAD_TOO_LARGE_MESSAGE } from '@pos/domain';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS_DIR } from '../../db/client';
import { createAgent, createDistributorAccount, createOrder, createReceipt, createStore } from '../../db/factories';
import { contracts, taxCertificates, uploads } from '../../db/schema';
import { createLocalStorage } from '../../integrations/storage/local-storage';
import { uploadsDir } from '../../integrations/storage';
import { createTestDatabase } from '../../test/db-template';
import { signInStaff } from '../../test/sign-in';
import { createTestApp } from '../../test/test-app';
import { insertUpload, listFiles, multipartBody, sampleFile, type MultipartPart } from '../../test/uploads';
import type { ServiceCtx } from '../../context';
import { storeUpload } from './uploads.service';

const CHECK_URL = '/api/customers/paymentinstruments/check/addimage';
const ACHCAD_URL = '/api/customers/paymentinstruments/achcad/addimage';

async function startApp() {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'pos-uploads-'));
  const t = await createTestApp({ config: { dataDir } });
  const tokens = await signInStaff(t, { editor: 'Customer Support', viewer: 'Operations', marketer: 'Marketing' });
  const folder = uploadsDir(dataDir);
  const post = (url: string, token: string, parts: MultipartPart[]) => {
    const body = multipartBody(parts);
    return t.request({ method: 'POST', url: `${url}/${token}`, payload: body.payload, headers: body.headers });
  };
  return {
    t,
    tokens,
    folder,
    post,
    async close() {
      await t.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describe('uploads refused: a clear message, and nothing left in DATA_DIR/uploads', () => {
  let s: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    s = await startApp();
  });
  afterAll(() => s.close());

  const expectNothingStored = async () => {
    expect(listFiles(s.folder)).toEqual([]);
    expect(await s.t.database.query(`select id from uploads`)).toEqual([]);
  };

  it('a PNG renamed .pdf (both allowed for check images) → 415', async () => {
    const res = await s.post(CHECK_URL, s.tokens.editor, [
      { name: 'checkimage', filename: 'cheque.pdf', contentType: 'application/pdf', data: sampleFile('png') },
    ]);
    expect(res.statusCode, res.body).toBe(415);
    expect(res.json().error).toMatchObject({
      code: 'unsupported_media_type',
      message: 'The file is a PNG but its name ends in .pdf. Check images must be JPG, JPEG, PNG, GIF or PDF files.',
      fields: { checkimage: expect.stringContaining('PNG') },
    });
    await expectNothingStored();
  });

  it('5 MB + 1 byte (5,242,881) → 413', async () => {
    const res = await s.post(CHECK_URL, s.tokens.editor, [
      {
        name: 'checkimage',
        filename: 'big.png',
        contentType: 'image/png',
        data: sampleFile('png', UPLOAD_MAX_BYTES + 1),
      },
    ]);
    expect(res.statusCode, res.body).toBe(413);
    expect(res.json().error).toMatchObject({ code: 'payload_too_large', message: UPLOAD_TOO_LARGE_MESSAGE });
    await expectNothingStored();
  });

  it('a Content-Length far beyond the limit → 413 before reading', async () => {
    const body = multipartBody([
      {
        name: 'checkimage',
        filename: 'huge.png',
        contentType: 'image/png',
        data: sampleFile('png', UPLOAD_MAX_BYTES + 200_000),
      },
    ]);
    const res = await s.t.request({
      method: 'POST',
      url: `${CHECK_URL}/${s.tokens.editor}`,
      payload: body.payload,
      headers: body.headers,
    });
    expect(res.statusCode).toBe(413);
    expect(res.json().error.message).toBe(UPLOAD_TOO_LARGE_MESSAGE);
    await expectNothingStored();
  });

  it('a wrong field name → 400 naming the right one', async () => {
    const res = await s.post(CHECK_URL, s.tokens.editor, [
      { name: 'image', filename: 'cheque.png', contentType: 'image/png', data: sampleFile('png') },
    ]);
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().error).toMatchObject({
      code: 'bad_request',
      message: "The file must be sent in the form field 'checkimage', not 'image'.",
    });
    await expectNothingStored();
  });

  it('the ACH/CAD call wants its own field (achcadimage), not checkimage', async () => {
    const res = await s.post(ACHCAD_URL, s.tokens.editor, [
      { name: 'checkimage', filename: 'letter.pdf', contentType: 'application/pdf', data: sampleFile('pdf') },
    ]);
    expect(res.statusCode).toBe(400);
    expect(res.json().error.message).toBe("The file must be sent in the form field 'achcadimage', not 'checkimage'.");
    await expectNothingStored();
  });

  it('an HTML file declared as image/png → 415', async () => {
    const res = await s.post(CHECK_URL, s.tokens.editor, [
      {
        name: 'checkimage',
        filename: 'cheque.png',
        contentType: 'image/png',
        data: '<!doctype html><script>alert(1)</script>',
      },
    ]);
    expect(res.statusCode, res.body).toBe(415);
    expect(res.json().error).toMatchObject({
      code: 'unsupported_media_type',
      message:
        "The file's content is not a recognised image or PDF. Check images must be JPG, JPEG, PNG, GIF or PDF files.",
    });
    await expectNothingStored();
  });

  it('a declared type that does not match the name, a wrong extension, an empty file', async () => {
    const mismatch = await s.post(CHECK_URL, s.tokens.editor, [
      { name: 'checkimage', filename: 'cheque.png', contentType: 'application/pdf', data: sampleFile('png') },
    ]);
    expect(mismatch.statusCode).toBe(415);
    expect(mismatch.json().error.message).toMatch(
      /^The file's type \(application\/pdf\) does not match its \.png name\./,
    );
    const heic = await s.post(CHECK_URL, s.tokens.editor, [
      { name: 'checkimage', filename: 'cheque.heic', data: sampleFile('png') },
    ]);
    expect(heic.statusCode).toBe(415);
    expect(heic.json().error.message).toBe('Check images must be JPG, JPEG, PNG, GIF or PDF files.');
    const empty = await s.post(CHECK_URL, s.tokens.editor, [
      { name: 'checkimage', filename: 'cheque.png', contentType: 'image/png', data: Buffer.alloc(0) },
    ]);
    expect(empty.statusCode).toBe(400);
    expect(empty.json().error).toMatchObject({ code: 'validation_failed', message: 'The file is empty.' });
    await expectNothingStored();
  });

  it('no file, two files, or not multipart at all', async () => {
    const none = await s.post(CHECK_URL, s.tokens.editor, [{ name: 'note', data: 'hello' }]);
    expect(none.statusCode).toBe(400);
    expect(none.json().error.message).toBe("Attach a file in the form field 'checkimage'.");
    const two = await s.post(CHECK_URL, s.tokens.editor, [
      { name: 'checkimage', filename: 'a.png', contentType: 'image/png', data: sampleFile('png') },
      { name: 'checkimage', filename: 'b.png', contentType: 'image/png', data: sampleFile('png') },
    ]);
    expect(two.statusCode, two.body).toBe(400);
    expect(two.json().error.message).toBe("Send exactly one file, in the form field 'checkimage'.");
    const json = await s.t.request({
      method: 'POST',
      url: `${CHECK_URL}/${s.tokens.editor}`,
      payload: { checkimage: 'x' },
    });
    expect(json.statusCode).toBe(415);
    expect(json.json().error.message).toBe("Send the file as multipart/form-data in the form field 'checkimage'.");
    const cut = multipartBody([
      { name: 'checkimage', filename: 'a.png', contentType: 'image/png', data: sampleFile('png') },
    ]);
    const truncated = await s.t.request({
      method: 'POST',
      url: `${CHECK_URL}/${s.tokens.editor}`,
      payload: cut.payload.subarray(0, cut.payload.length - 60),
      headers: cut.headers,
    });
    expect(truncated.statusCode, truncated.body).toBe(400);
    expect(truncated.json().error.message).toBe(
      'The upload was cut off or is not valid multipart/form-data. Try again.',
    );
    await expectNothingStored();
  });

  it('a bad token → 403; a user without customer_details_edit → 403', async () => {
    const file: MultipartPart = {
      name: 'checkimage',
      filename: 'cheque.png',
      contentType: 'image/png',
      data: sampleFile('png'),
    };
    const bad = await s.post(CHECK_URL, 'Q'.repeat(43), [file]);
    expect(bad.statusCode).toBe(403);
    expect(bad.json().error.code).toBe('session_invalid');
    const viewer = await s.post(CHECK_URL, s.tokens.viewer, [file]);
    expect(viewer.statusCode).toBe(403);
    expect(viewer.json().error).toMatchObject({
      code: 'forbidden',
      message: 'This needs one of these privileges: customer_details_edit.',
    });
    const achViewer = await s.post(ACHCAD_URL, s.tokens.viewer, [{ ...file, name: 'achcadimage' }]);
    expect(achViewer.statusCode).toBe(403);
    await expectNothingStored();
  });
});

describe('uploads accepted: stored, recorded, served back', () => {
  let s: Awaited<ReturnType<typeof startApp>>;
  beforeAll(async () => {
    s = await startApp();
  });
  afterAll(() => s.close());

  it('stores a check image under a server-made key, records it with its audit entry, and serves it back byte-identical', async () => {
    const bytes = sampleFile('png', 4096);
    const res = await s.post(CHECK_URL, s.tokens.editor, [
      { name: 'note', data: 'front side' },
      { name: 'checkimage', filename: 'Chèque n°1 (front).png', contentType: 'image/png', data: bytes },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    const info = res.json().info;
    expect(info).toEqual({
      upload_id: expect.stringMatching(UPLOAD_PUBLIC_ID_PATTERN),
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: 4096,
      content_type: 'image/png',
      original_name: 'Chèque n°1 (front).png',
    });

    const [row] = await s.t.database.query<{
      id: number;
      kind: string;
      storage_key: string;
      created_by_email: string;
      sha256: string;
      owner_type: string | null;
    }>(`select id, kind, storage_key, created_by_email, sha256, owner_type from uploads where public_id = $1`, [
      info.upload_id,
    ]);
    expect(row).toMatchObject({
      kind: 'checkImage',
      created_by_email: 'editor@example.com',
      sha256: info.sha256,
      owner_type: null,
    });
    expect(row!.storage_key).toMatch(/^checkImage\/2026\/11\/[0-9a-f]{32}\.png$/);
    expect(listFiles(s.folder)).toEqual([path.join(...row!.storage_key.split('/'))]);
    const audit = await s.t.database.query<{ action: string; actor_email: string }>(
      `select action, actor_email from audit_log where entity = 'upload' and entity_id = $1`,
      [String(row!.id)],
    );
    expect(audit).toEqual([{ action: 'create', actor_email: 'editor@example.com' }]);

    const back = await s.t.request({ method: 'GET', url: `/api/uploads/${info.upload_id}/${s.tokens.editor}` });
    expect(back.statusCode).toBe(200);
    expect(back.rawPayload.equals(bytes)).toBe(true);
    expect(back.headers['content-type']).toBe('image/png');
    expect(back.headers['content-length']).toBe('4096');
    expect(back.headers['x-content-type-options']).toBe('nosniff');
    expect(back.headers['content-disposition']).toBe(
      `attachment; filename="Ch_que n_1 (front).png"; filename*=UTF-8''Ch%C3%A8que%20n%C2%B01%20%28front%29.png`,
    );
  });

  it('accepts exactly 5,242,880 bytes (an ACH/CAD PDF) and stores the type from the bytes, not the browser', async () => {
    const bytes = sampleFile('pdf', UPLOAD_MAX_BYTES);
    const res = await s.post(ACHCAD_URL, s.tokens.editor, [
      { name: 'achcadimage', filename: 'void-cheque.PDF', contentType: 'application/octet-stream', data: bytes },
    ]);
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json().info).toMatchObject({
      size: UPLOAD_MAX_BYTES,
      content_type: 'application/pdf',
      original_name: 'void-cheque.PDF',
    });
    const back = await s.t.request({
      method: 'GET',
      url: `/api/uploads/${res.json().info.upload_id}/${s.tokens.editor}`,
    });
    expect(back.statusCode).toBe(200);
    expect(back.headers['content-type']).toBe('application/pdf');
    expect(back.rawPayload.equals(bytes)).toBe(true);
  });

  it('download: a bad token → 403 before anything is looked up', async () => {
    const res = await s.post(CHECK_URL, s.tokens.editor, [
      { name: 'checkimage', filename: 'c.jpg', contentType: 'image/jpeg', data: sampleFile('jpeg') },
    ]);
    const id = res.json().info.upload_id as string;
    const bad = await s.t.request({ method: 'GET', url: `/api/uploads/${id}/${'Q'.repeat(43)}` });
    expect(bad.statusCode).toBe(403);
    expect(bad.json().error.code).toBe('session_invalid');
  });

  it('a failed record removes the file it stored', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'pos-uploads-fail-'));
    try {
      const ctx = {
        app: {
          database: { db: { transaction: async () => Promise.reject(new Error('database down')) } },
          clock: s.t.clock,
          storage: createLocalStorage(dir),
        },
        session: { email: 'editor@example.com' },
        actor: { actorType: 'staff', actorEmail: 'editor@example.com' },
        requestId: 'r1',
      } as unknown as ServiceCtx;
      const bytes = sampleFile('png');
      await expect(
        storeUpload(
          ctx,
          {
            kind: 'checkImage',
            field: 'checkimage',
            file: {
              fieldName: 'checkimage',
              fileName: 'a.png',
              declaredType: 'image/png',
              bytes,
              sha256: createHash('sha256').update(bytes).digest('hex'),
            },
          },
          s.t.app.log,
        ),
      ).rejects.toThrow('database down');
      expect(listFiles(dir)).toEqual([]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

/*
 * Issue 27 item 1 (decision 140): an upload is readable exactly when the record it belongs to is — the owner's rule
 * (order, payment instrument's customer, receipt's customer, certificate's store) and a privilege that reads that kind
 * of record; an upload attached to nothing only by its uploader; anything else, and an unknown id, the same 404. Ids are
 * public ids of 192 random bits: a sequential id is not even an upload id (400).
 */
describe('who may read an upload: exactly who may read the record it belongs to (issue 27 item 1)', () => {
  let s: Awaited<ReturnType<typeof startApp>>;
  let tok: Record<
    'admin' | 'editor' | 'viewer' | 'marketer' | 'ar' | 'rdc' | 'distStaff' | 'distributor' | 'maketoken',
    string
  >;
  /** The agents of the agent-scoped callers, and another agent none of them is. */
  const agents = { distributor: 0, rdc: 0, maketoken: 0, distStaff: 0, foreign: 0 };
  /** An order of each agent, with its contract PDFs (the signed one is the one asked for). */
  const orderOf: Record<keyof typeof agents, { id: number; storeId: number; signedPdf: string }> = {} as never;

  const get = (id: string | number, token: string) =>
    s.t.request({ method: 'GET', url: `/api/uploads/${id}/${token}` });
  const notFoundBody = (id: string) => ({ code: 'not_found', message: `Upload ${id} was not found.` });

  /** A stored file with its uploads row (as the product records it), answered by its public id. */
  async function storedUpload(values: Parameters<typeof insertUpload>[1]): Promise<string> {
    const key = `test/${randomBytes(16).toString('hex')}.pdf`;
    const bytes = sampleFile('pdf');
    await s.t.app.ctx.storage.put(key, bytes, 'application/pdf');
    const row = await insertUpload(s.t.database.db, {
      kind: 'contract',
      originalName: 'contract.pdf',
      contentType: 'application/pdf',
      sizeBytes: bytes.length,
      storageKey: key,
      ...values,
    });
    return row.publicId;
  }

  /** An order of `agentId` at a store of its own, with a generated and a signed contract PDF (as signing leaves it). */
  async function orderWithSignedContract(agentId: number) {
    const db = s.t.database.db;
    const store = await createStore(db, { country: 'US' });
    const order = await createOrder(db, { storeId: store.id, agentId });
    const owner = { ownerType: 'order', ownerId: String(order.id), createdByEmail: null };
    const generated = await storedUpload({ ...owner, originalName: `contract-${order.unifiedOrderId}-v1.pdf` });
    const signed = await storedUpload({ ...owner, originalName: `contract-${order.unifiedOrderId}-v1-signed.pdf` });
    const ids = await db
      .select({ id: uploads.id, publicId: uploads.publicId })
      .from(uploads)
      .where(inArray(uploads.publicId, [generated, signed]));
    const idOf = (p: string) => ids.find((r) => r.publicId === p)!.id;
    await db.insert(contracts).values({
      orderId: order.id,
      versionNo: 1,
      status: 'signed',
      uploadId: idOf(generated),
      signedUploadId: idOf(signed),
      signedByName: 'Merchant Owner',
      signedAt: s.t.clock.now(),
      signedFromIp: '203.0.113.7',
    });
    return { id: order.id, storeId: store.id, signedPdf: signed };
  }

  beforeAll(async () => {
    s = await startApp();
    const db = s.t.database.db;
    for (const k of Object.keys(agents) as (keyof typeof agents)[])
      agents[k] = (await createAgent(db, { type: k === 'rdc' ? 'RDC' : 'Distributor', name: `Agent ${k}` })).id;
    const staff = await signInStaff(s.t, {
      admin: 'Admin',
      ar: 'AR Team',
      rdc: { role: 'RDC', agentId: agents.rdc },
      // Agent-scoped staff given customer details on top of its role: the store rule, not the privilege, decides.
      distStaff: { role: 'Distributor', agentId: agents.distStaff, additionalPrivileges: ['customer_details_view'] },
    });
    const account = await createDistributorAccount(db, {
      email: 'dist-login@example.com',
      password: 'pw-uploads-1',
      agentId: agents.distributor,
    });
    const login = await s.t.request({
      method: 'POST',
      url: '/api/auth/distributor/login',
      payload: { email: account.email, password: 'pw-uploads-1' },
    });
    expect(login.statusCode, login.body).toBe(200);
    const key = await s.t.request({
      method: 'POST',
      url: `/api/auth/integrationkeys/${staff.admin}`,
      payload: { name: 'Uploads CRM', agent_id: agents.maketoken },
    });
    expect(key.statusCode, key.body).toBe(201);
    const made = await s.t.request({ method: 'GET', url: `/api/auth/${key.json().info.key as string}/gettoken` });
    expect(made.statusCode, made.body).toBe(200);
    tok = {
      ...s.tokens,
      ...staff,
      distributor: login.json().info.token as string,
      maketoken: made.json().info.token as string,
    };
    for (const k of Object.keys(agents) as (keyof typeof agents)[])
      orderOf[k] = await orderWithSignedContract(agents[k]);
  }, 60_000);
  afterAll(() => s.close());

  it("another agent's signed contract PDF is 404 for a distributor login, an RDC user and a make-token session, like the order (issue 27 item 1)", async () => {
    const foreign = orderOf.foreign;
    const unknown = 'bm8tc3VjaC11cGxvYWQtYXQtYWxsLTAw';
    for (const caller of ['distributor', 'rdc', 'maketoken'] as const) {
      const token = tok[caller];
      // The order itself is 404 for this session…
      const order = await s.t.request({ method: 'GET', url: `/api/customers/orders/${foreign.id}/${token}` });
      expect(order.statusCode, `${caller}: the order`).toBe(404);
      // …and so is its signed contract PDF, answered exactly like an upload that does not exist.
      const pdf = await get(foreign.signedPdf, token);
      expect(pdf.statusCode, `${caller}: the signed PDF`).toBe(404);
      expect(pdf.json().error).toEqual(notFoundBody(foreign.signedPdf));
      expect(pdf.body).not.toContain('%PDF');
      const missing = await get(unknown, token);
      expect(missing.statusCode).toBe(404);
      expect(missing.json().error).toEqual(notFoundBody(unknown));
      // Its own agent's contract PDF it reads, as it reads that order.
      const own = orderOf[caller];
      expect((await s.t.request({ method: 'GET', url: `/api/customers/orders/${own.id}/${token}` })).statusCode).toBe(
        200,
      );
      const mine = await get(own.signedPdf, token);
      expect(mine.statusCode, `${caller}: its own order's PDF`).toBe(200);
      expect(mine.headers['content-type']).toBe('application/pdf');
    }
    // Unscoped staff with an order privilege read it (Admin; Marketing's order search view too).
    expect((await get(foreign.signedPdf, tok.admin)).statusCode).toBe(200);
    expect((await get(foreign.signedPdf, tok.marketer)).statusCode).toBe(200);
  });

  it("a payment instrument's check image: read with the instrument's customer (customer details), else 404", async () => {
    const db = s.t.database.db;
    const store = await createStore(db, { country: 'US' });
    const up = await s.post(CHECK_URL, tok.editor, [
      { name: 'checkimage', filename: 'void.png', contentType: 'image/png', data: sampleFile('png') },
    ]);
    expect(up.statusCode, up.body).toBe(201);
    const id = up.json().info.upload_id as string;
    const add = await s.t.request({
      method: 'POST',
      url: `/api/customers/${store.customerId}/${tok.editor}/paymentinstruments`,
      payload: {
        kind: 'bank',
        name_on_account: 'Pat Merchant LLC',
        routing_number: '021000021',
        account_number: '000123456789',
        account_type: 'checking',
        bank_name: 'Chase',
        check_image_upload_id: id,
        make_default: false,
      },
    });
    expect(add.statusCode, add.body).toBe(201);
    const [row] = await db.select().from(uploads).where(eq(uploads.publicId, id));
    expect(row).toMatchObject({ ownerType: 'payment_instrument', ownerId: String(add.json().info.id) });
    expect((await get(id, tok.editor)).statusCode).toBe(200);
    expect((await get(id, tok.viewer)).statusCode).toBe(200); // Operations: customer_details_view
    expect((await get(id, tok.admin)).statusCode).toBe(200);
    // No privilege that reads customers (Marketing, an RDC user), or a customer the agent-scoped session cannot see.
    for (const token of [tok.marketer, tok.rdc, tok.distStaff, tok.distributor]) {
      const res = await get(id, token);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toEqual(notFoundBody(id));
    }
    // Once an order of the agent is at the customer's store, the agent-scoped session with customer details reads it.
    await createOrder(db, { storeId: store.id, agentId: agents.distStaff });
    expect((await get(id, tok.distStaff)).statusCode).toBe(200);
  });

  it("a receipt's check image: read with the receipts privileges, else 404", async () => {
    const db = s.t.database.db;
    const store = await createStore(db, { country: 'US' });
    const up = await s.post('/api/receipts/checkimage', tok.ar, [
      { name: 'checkimage', filename: 'check-77.png', contentType: 'image/png', data: sampleFile('png') },
    ]);
    expect(up.statusCode, up.body).toBe(201);
    const id = up.json().info.upload_id as string;
    const receipt = await s.t.request({
      method: 'POST',
      url: `/api/receipts/${tok.ar}`,
      headers: { 'idempotency-key': randomUUID() },
      payload: {
        customer_id: store.customerId,
        method: 'check',
        amount_cents: 50_00,
        currency: 'USD',
        received_on: '2026-11-20',
        reference: '77',
        upload_id: id,
      },
    });
    expect(receipt.statusCode, receipt.body).toBe(201);
    expect(receipt.json().info.receipt.upload_id).toBe(id);
    const [row] = await db.select().from(uploads).where(eq(uploads.publicId, id));
    expect(row).toMatchObject({ ownerType: 'receipt', ownerId: String(receipt.json().info.receipt.id) });
    expect((await get(id, tok.ar)).statusCode).toBe(200);
    expect((await get(id, tok.admin)).statusCode).toBe(200);
    for (const token of [tok.editor, tok.viewer, tok.distributor, tok.maketoken]) {
      const res = await get(id, token);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toEqual(notFoundBody(id));
    }
  });

  it("a tax certificate's file: read with the certificate's store (customer details), else 404", async () => {
    const db = s.t.database.db;
    const az = await createStore(db, { country: 'US', state: 'AZ' });
    const up = await s.post('/api/taxcertificates/upload', tok.editor, [
      { name: 'certificate', filename: 'tpt.pdf', contentType: 'application/pdf', data: sampleFile('pdf') },
    ]);
    expect(up.statusCode, up.body).toBe(201);
    const id = up.json().info.upload_id as string;
    const cert = await s.t.request({
      method: 'POST',
      url: `/api/taxcertificates/${tok.editor}`,
      payload: { store_id: az.id, kind: 'TPT', certificate_number: 'TPT-27', expires_on: '2027-06-30', upload_id: id },
    });
    expect(cert.statusCode, cert.body).toBe(201);
    expect(cert.json().info.upload_id).toBe(id);
    const [row] = await db.select().from(uploads).where(eq(uploads.publicId, id));
    expect(row).toMatchObject({ ownerType: 'tax_certificate', ownerId: String(cert.json().info.id) });
    expect((await get(id, tok.viewer)).statusCode).toBe(200);
    expect((await get(id, tok.admin)).statusCode).toBe(200);
    for (const token of [tok.marketer, tok.distStaff, tok.distributor]) {
      const res = await get(id, token);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toEqual(notFoundBody(id));
    }
    // The store becomes the agent's (an order of its agent there): its agent-scoped session with customer details reads it.
    await createOrder(db, { storeId: az.id, agentId: agents.distStaff });
    expect((await get(id, tok.distStaff)).statusCode).toBe(200);
  });

  it('an upload attached to nothing is readable by its uploader only', async () => {
    const up = await s.post(CHECK_URL, tok.editor, [
      { name: 'checkimage', filename: 'loose.png', contentType: 'image/png', data: sampleFile('png') },
    ]);
    const id = up.json().info.upload_id as string;
    expect((await get(id, tok.editor)).statusCode).toBe(200);
    for (const token of [tok.admin, tok.viewer, tok.ar, tok.marketer, tok.distributor, tok.maketoken, tok.rdc]) {
      const res = await get(id, token);
      expect(res.statusCode).toBe(404);
      expect(res.json().error).toEqual(notFoundBody(id));
    }
    // A file the product made itself and never attached (no uploader) is nobody's.
    const orphan = await storedUpload({ ownerType: null, createdByEmail: null });
    for (const token of [tok.admin, tok.editor]) expect((await get(orphan, token)).statusCode).toBe(404);
  });

  it('sequential or guessed ids are refused: a number is no upload id (400), a well-formed guess is 404', async () => {
    const [first] = await s.t.database.db.select().from(uploads).orderBy(uploads.id).limit(1);
    expect(first).toBeDefined();
    // The table's own key, and its neighbours, as an admin would try them: not an upload id at all.
    for (const guess of [String(first!.id), String(first!.id + 1), '1', '0', '-1', '2147483648']) {
      const res = await get(guess, tok.admin);
      expect(res.statusCode, guess).toBe(400);
      expect(res.json().error.code).toBe('validation_failed');
    }
    // Garbage of every shape: 400, never a 500.
    for (const garbage of [
      'A'.repeat(31),
      'A'.repeat(33),
      `${'A'.repeat(31)}=`,
      `${'A'.repeat(31)}.`,
      'x'.repeat(90),
    ]) {
      const res = await get(encodeURIComponent(garbage), tok.admin);
      expect(res.statusCode, garbage).toBe(400);
    }
    // Past the router's longest path parameter (100 characters): 414 from the router itself — or, once the web app is
    // built (apps/web/dist), the app's catch-all takes the path and answers 404. Never the file.
    expect([404, 414]).toContain((await get('x'.repeat(300), tok.admin)).statusCode);
    // A well-formed guess names nothing: the same 404 as an upload the session may not read.
    const guess = randomBytes(24).toString('base64url');
    const res = await get(guess, tok.admin);
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toEqual(notFoundBody(guess));
    // Every public id is 192 random bits: none is the key, none repeats.
    const ids = await s.t.database.db.select({ id: uploads.id, publicId: uploads.publicId }).from(uploads);
    expect(ids.length).toBeGreaterThanOrEqual(10);
    expect(new Set(ids.map((r) => r.publicId)).size).toBe(ids.length);
    for (const r of ids) expect(r.publicId).toMatch(UPLOAD_PUBLIC_ID_PATTERN);
  });

  it("attaching someone else's upload, or one already attached, by its id in a body → 404 naming the field", async () => {
    const db = s.t.database.db;
    const store = await createStore(db, { country: 'US' });
    const theirs = await s.post(CHECK_URL, tok.admin, [
      { name: 'checkimage', filename: 'admins.png', contentType: 'image/png', data: sampleFile('png') },
    ]);
    const theirsId = theirs.json().info.upload_id as string;
    const bank = (checkImage: string) => ({
      kind: 'bank',
      name_on_account: 'Pat Merchant LLC',
      routing_number: '021000021',
      account_number: '000123456789',
      account_type: 'checking',
      bank_name: 'Chase',
      check_image_upload_id: checkImage,
      make_default: false,
    });
    const instrumentsUrl = `/api/customers/${store.customerId}/${tok.editor}/paymentinstruments`;
    const foreign = await s.t.request({ method: 'POST', url: instrumentsUrl, payload: bank(theirsId) });
    expect(foreign.statusCode, foreign.body).toBe(404);
    expect(foreign.json().error).toEqual({
      ...notFoundBody(theirsId),
      fields: { check_image_upload_id: 'This file was not found: upload it again.' },
    });
    // The job call takes the image by id too (notifications: POST …/paymentinstruments/add).
    const job = (uploadId: string) =>
      s.t.request({
        method: 'POST',
        url: `/api/customers/paymentinstruments/add/${tok.editor}`,
        payload: { customer_id: store.customerId, kind: 'bank', upload_id: uploadId, achBankName: 'Chase' },
      });
    const foreignJob = await job(theirsId);
    expect(foreignJob.statusCode, foreignJob.body).toBe(404);
    expect(foreignJob.json().error).toEqual({
      ...notFoundBody(theirsId),
      fields: { upload_id: 'This file was not found: upload it again.' },
    });
    const [still] = await db.select().from(uploads).where(eq(uploads.publicId, theirsId));
    expect(still!.ownerType).toBeNull();

    // Its own unattached image it may attach, once; then it is the instrument's and no longer attachable.
    const mine = await s.post(CHECK_URL, tok.editor, [
      { name: 'checkimage', filename: 'mine.png', contentType: 'image/png', data: sampleFile('png') },
    ]);
    const mineId = mine.json().info.upload_id as string;
    expect((await job(mineId)).statusCode).toBe(202);
    expect((await s.t.request({ method: 'POST', url: instrumentsUrl, payload: bank(mineId) })).statusCode).toBe(201);
    const again = await s.t.request({ method: 'POST', url: instrumentsUrl, payload: bank(mineId) });
    expect(again.statusCode).toBe(404);
    expect(again.json().error).toEqual({
      ...notFoundBody(mineId),
      fields: { check_image_upload_id: 'This file was not found: upload it again.' },
    });
    expect((await job(mineId)).statusCode).toBe(404);
    // A sequential id is not an upload id: 400 naming the field.
    const numeric = await s.t.request({ method: 'POST', url: instrumentsUrl, payload: bank(String(still!.id)) });
    expect(numeric.statusCode).toBe(400);
    expect(numeric.json().error.fields).toHaveProperty('check_image_upload_id');
  });
});

describe('migration 0027: public ids for existing uploads, owners for the referenced ones', () => {
  it('backfills a 192-bit public id on every row and the owner of every referenced upload without one', async () => {
    const database = await createTestDatabase();
    try {
      const db = database.db;
      // The table as it was before 0027.
      await database.exec(`ALTER TABLE uploads DROP COLUMN public_id`);
      const store = await createStore(db, { country: 'US', state: 'AZ' });
      const order = await createOrder(db, { storeId: store.id });
      const row = async (kind: string, owner: { type: string; id: string } | null = null) => {
        const [r] = await database.query<{ id: number }>(
          `insert into uploads (kind, original_name, content_type, size_bytes, sha256, storage_key, owner_type, owner_id)
           values ($1, 'f', 'application/pdf', 1, $2, $3, $4, $5) returning id`,
          [kind, 'a'.repeat(64), `m/${randomBytes(8).toString('hex')}`, owner?.type ?? null, owner?.id ?? null],
        );
        return r!.id;
      };
      const generated = await row('contract');
      const signed = await row('contract');
      const check = await row('checkImage');
      const certFile = await row('taxCertificate');
      const loose = await row('checkImage');
      const instrumentImage = await row('checkImage', { type: 'payment_instrument', id: '42' });
      await db
        .insert(contracts)
        .values({ orderId: order.id, versionNo: 1, uploadId: generated, signedUploadId: signed });
      const receipt = await createReceipt(db, { customerId: store.customerId, uploadId: check });
      const [cert] = await db
        .insert(taxCertificates)
        .values({
          customerId: store.customerId,
          storeId: store.id,
          state: 'AZ',
          certificateNumber: 'TPT-1',
          uploadId: certFile,
        })
        .returning();

      const migration = readFileSync(path.join(MIGRATIONS_DIR, '0027_uploads_public_id.sql'), 'utf8');
      for (const statement of migration.split('--> statement-breakpoint')) await database.exec(statement);

      const rows = await database.query<{ id: number; public_id: string; owner_type: string | null; owner_id: string }>(
        `select id, public_id, owner_type, owner_id from uploads order by id`,
      );
      for (const r of rows) expect(r.public_id).toMatch(UPLOAD_PUBLIC_ID_PATTERN);
      expect(new Set(rows.map((r) => r.public_id)).size).toBe(rows.length);
      const owner = (id: number) => {
        const r = rows.find((x) => x.id === id)!;
        return [r.owner_type, r.owner_id];
      };
      expect(owner(generated)).toEqual(['order', String(order.id)]);
      expect(owner(signed)).toEqual(['order', String(order.id)]);
      expect(owner(check)).toEqual(['receipt', String(receipt.id)]);
      expect(owner(certFile)).toEqual(['tax_certificate', String(cert!.id)]);
      expect(owner(loose)).toEqual([null, null]);
      expect(owner(instrumentImage)).toEqual(['payment_instrument', '42']);
      // NOT NULL, unique and of its shape from now on.
      await expect(
        database.exec(`insert into uploads (kind, original_name, content_type, size_bytes, sha256, storage_key, public_id)
        values ('checkImage', 'f', 'image/png', 1, '${'a'.repeat(64)}', 'm/x', '1')`),
      ).rejects.toThrow();
      await expect(
        database.exec(
          `update uploads set public_id = (select public_id from uploads where id = ${generated}) where id = ${signed}`,
        ),
      ).rejects.toThrow();
    } finally {
      await database.close();
    }
  });
});
