import { createHash } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE_MESSAGE } from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createLocalStorage } from '../../integrations/storage/local-storage';
import { uploadsDir } from '../../integrations/storage';
import { signInStaff } from '../../test/sign-in';
import { createTestApp } from '../../test/test-app';
import { listFiles, multipartBody, sampleFile, type MultipartPart } from '../../test/uploads';
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
      upload_id: expect.any(Number),
      sha256: createHash('sha256').update(bytes).digest('hex'),
      size: 4096,
      content_type: 'image/png',
      original_name: 'Chèque n°1 (front).png',
    });

    const [row] = await s.t.database.query<{
      kind: string;
      storage_key: string;
      created_by_email: string;
      sha256: string;
    }>(`select kind, storage_key, created_by_email, sha256 from uploads where id = $1`, [info.upload_id]);
    expect(row).toMatchObject({ kind: 'checkImage', created_by_email: 'editor@example.com', sha256: info.sha256 });
    expect(row!.storage_key).toMatch(/^checkImage\/2026\/11\/[0-9a-f]{32}\.png$/);
    expect(listFiles(s.folder)).toEqual([path.join(...row!.storage_key.split('/'))]);
    const audit = await s.t.database.query<{ action: string; actor_email: string }>(
      `select action, actor_email from audit_log where entity = 'upload' and entity_id = $1`,
      [String(info.upload_id)],
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

  it('download: readers of the kind may, others 403; unknown id 404; bad token 403', async () => {
    const res = await s.post(CHECK_URL, s.tokens.editor, [
      { name: 'checkimage', filename: 'c.jpg', contentType: 'image/jpeg', data: sampleFile('jpeg') },
    ]);
    const id = res.json().info.upload_id as number;
    expect((await s.t.request({ method: 'GET', url: `/api/uploads/${id}/${s.tokens.viewer}` })).statusCode).toBe(200);
    const marketer = await s.t.request({ method: 'GET', url: `/api/uploads/${id}/${s.tokens.marketer}` });
    expect(marketer.statusCode).toBe(403);
    expect(marketer.json().error.code).toBe('forbidden');
    const missing = await s.t.request({ method: 'GET', url: `/api/uploads/999999/${s.tokens.editor}` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json().error.message).toBe('Upload 999999 was not found.');
    expect((await s.t.request({ method: 'GET', url: `/api/uploads/${id}/${'Q'.repeat(43)}` })).statusCode).toBe(403);
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
