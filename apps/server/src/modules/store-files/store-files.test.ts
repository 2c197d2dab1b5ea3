import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE_MESSAGE } from '@pos/domain';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createOrder, createStore } from '../../db/factories';
import { uploadsDir } from '../../integrations/storage';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';
import { listFiles, multipartBody, sampleFile, type MultipartPart } from '../../test/uploads';

/** A HEIC still image's first bytes (ISO-BMFF 'ftyp' box, brand 'heic') and some more. */
const heic = () =>
  Buffer.concat([Buffer.from([0, 0, 0, 0x18]), Buffer.from('ftypheic'), sampleFile('png').subarray(16)]);

describe('store files: store pictures, business licenses, reseller files (decision 160)', () => {
  let t: TestApp;
  let dataDir: string;
  let tok: Record<'editor' | 'viewer' | 'scoped', string>;
  let storeId: number;
  let ownStoreId: number;
  let foreignStoreId: number;

  const url = (sid: number, token: string, rest = '') => `/api/stores/${sid}/files${rest}/${token}`;
  const upload = (sid: number, token: string, parts: MultipartPart[]) => {
    const body = multipartBody(parts);
    return t.request({ method: 'POST', url: url(sid, token), payload: body.payload, headers: body.headers });
  };
  const file = (kind: string, filename: string, contentType: string, data: Buffer): MultipartPart[] => [
    { name: 'kind', data: kind },
    { name: 'file', filename, contentType, data },
  ];
  const auditOf = async (action: string) =>
    t.database.query<{ entity_id: string; customer_id: number | null }>(
      `select entity_id, customer_id from audit_log where entity = 'store_file' and action = '${action}' order by id`,
    );

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(os.tmpdir(), 'pos-store-files-'));
    t = await createTestApp({ config: { dataDir } });
    const db = t.database.db;
    const [mine, theirs] = [
      await createAgent(db, { type: 'Distributor' }),
      await createAgent(db, { type: 'Distributor' }),
    ];
    tok = await signInStaff(t, {
      editor: 'Customer Support',
      // Order search read-only: reads a store's files, uploads and deletes none.
      viewer: 'Marketing',
      scoped: { role: 'Distributor', agentId: mine.id, additionalPrivileges: ['customer_details_edit'] },
    });
    storeId = (await createStore(db, { country: 'US' })).id;
    ownStoreId = (await createStore(db, { country: 'US' })).id;
    await createOrder(db, { storeId: ownStoreId, agentId: mine.id });
    foreignStoreId = (await createStore(db, { country: 'US' })).id;
    await createOrder(db, { storeId: foreignStoreId, agentId: theirs.id });
  }, 60_000);
  afterAll(async () => {
    await t.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('uploads each kind with its types, lists them with who and when, newest first, and audits each', async () => {
    const cases = [
      ['store_picture', 'front.jpg', 'image/jpeg', sampleFile('jpeg')],
      ['store_picture', 'inside.heic', 'image/heic', heic()],
      ['business_license', 'license.pdf', 'application/pdf', sampleFile('pdf')],
      ['reseller_file', 'reseller.png', 'image/png', sampleFile('png')],
    ] as const;
    for (const [kind, name, type, data] of cases) {
      const res = await upload(storeId, tok.editor, file(kind, name, type, data));
      expect(res.statusCode, res.body).toBe(201);
      expect(res.json().info).toMatchObject({
        store_id: storeId,
        kind,
        file_name: name,
        size: data.length,
        uploaded_by_email: 'editor@example.com',
        previewable: type === 'image/jpeg' || type === 'image/png',
      });
    }
    const list = await t.request({ method: 'GET', url: url(storeId, tok.viewer) });
    expect(list.statusCode, list.body).toBe(200);
    const items = list.json().info.items as Array<Record<string, unknown>>;
    expect(items.map((i) => i.file_name)).toEqual(['reseller.png', 'license.pdf', 'inside.heic', 'front.jpg']);
    for (const item of items) {
      expect(item.uploaded_by_email).toBe('editor@example.com');
      expect(String(item.uploaded_by_name)).not.toBe('');
      expect(Number.isNaN(Date.parse(String(item.uploaded_at)))).toBe(false);
    }
    expect(items.find((i) => i.file_name === 'inside.heic')!.content_type).toBe('image/heic');
    const audits = await auditOf('create');
    expect(audits).toHaveLength(4);
    expect(audits.every((a) => a.customer_id !== null)).toBe(true);
  });

  it('downloads the file with its type and name; ?size=thumb shows an image inline', async () => {
    const list = await t.request({ method: 'GET', url: url(storeId, tok.viewer) });
    const png = (list.json().info.items as Array<{ id: number; file_name: string }>).find(
      (i) => i.file_name === 'reseller.png',
    )!;
    const res = await t.request({ method: 'GET', url: url(storeId, tok.viewer, `/${png.id}`) });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('image/png');
    expect(res.headers['content-disposition']).toMatch(/^attachment; filename="reseller.png"/);
    expect(res.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47]));
    const thumb = await t.request({ method: 'GET', url: `${url(storeId, tok.viewer, `/${png.id}`)}?size=thumb` });
    expect(thumb.statusCode).toBe(200);
    expect(thumb.headers['content-disposition']).toMatch(/^inline; /);
  });

  it('refuses a file over 5 MB (413), content that is not what it says (415), a type the kind does not take and a missing kind, storing nothing', async () => {
    const before = listFiles(uploadsDir(dataDir)).length;
    const big = await upload(
      storeId,
      tok.editor,
      file('store_picture', 'big.png', 'image/png', sampleFile('png', UPLOAD_MAX_BYTES + 1)),
    );
    expect(big.statusCode, big.body).toBe(413);
    expect(big.json().error.fields.file).toBe(UPLOAD_TOO_LARGE_MESSAGE);
    const fake = await upload(
      storeId,
      tok.editor,
      file('business_license', 'license.pdf', 'application/pdf', sampleFile('png')),
    );
    expect(fake.statusCode, fake.body).toBe(415);
    expect(fake.json().error.fields.file).toMatch(/PNG/);
    const text = await upload(
      storeId,
      tok.editor,
      file('store_picture', 'front.png', 'image/png', Buffer.from('not an image at all')),
    );
    expect(text.statusCode, text.body).toBe(415);
    const jpegReseller = await upload(
      storeId,
      tok.editor,
      file('reseller_file', 'r.jpg', 'image/jpeg', sampleFile('jpeg')),
    );
    expect(jpegReseller.statusCode, jpegReseller.body).toBe(415);
    expect(jpegReseller.json().error.fields.file).toBe('Reseller files must be PNG files only.');
    const pdfPicture = await upload(
      storeId,
      tok.editor,
      file('store_picture', 'p.pdf', 'application/pdf', sampleFile('pdf')),
    );
    expect(pdfPicture.statusCode, pdfPicture.body).toBe(415);
    const noKind = await upload(storeId, tok.editor, [
      { name: 'file', filename: 'front.png', contentType: 'image/png', data: sampleFile('png') },
    ]);
    expect(noKind.statusCode, noKind.body).toBe(400);
    expect(noKind.json().error.fields.kind).toBeTruthy();
    expect(listFiles(uploadsDir(dataDir)).length).toBe(before);
  });

  it("another agent's store is 404 for an agent-scoped session — upload, list, download, delete — like no store at all (issue 27)", async () => {
    const own = await upload(ownStoreId, tok.scoped, file('store_picture', 'mine.png', 'image/png', sampleFile('png')));
    expect(own.statusCode, own.body).toBe(201);
    const theirs = await upload(
      foreignStoreId,
      tok.editor,
      file('store_picture', 'theirs.png', 'image/png', sampleFile('png')),
    );
    expect(theirs.statusCode, theirs.body).toBe(201);
    const theirId = theirs.json().info.id as number;
    const refused = [
      await upload(foreignStoreId, tok.scoped, file('store_picture', 'x.png', 'image/png', sampleFile('png'))),
      await t.request({ method: 'GET', url: url(foreignStoreId, tok.scoped) }),
      await t.request({ method: 'GET', url: url(foreignStoreId, tok.scoped, `/${theirId}`) }),
      await t.request({ method: 'DELETE', url: url(foreignStoreId, tok.scoped, `/${theirId}`) }),
      // Its own store in the path does not reach another store's file.
      await t.request({ method: 'GET', url: url(ownStoreId, tok.scoped, `/${theirId}`) }),
    ];
    for (const res of refused) {
      expect(res.statusCode, res.body).toBe(404);
      expect(res.body).not.toContain('theirs.png');
    }
    expect(refused[1]!.json().error.message).toBe(`Store ${foreignStoreId} was not found.`);
    const missing = await t.request({ method: 'GET', url: url(999_999, tok.scoped) });
    expect(missing.json().error.message).toBe('Store 999999 was not found.');
    // The upload of a foreign store's file is not readable through the generic download either.
    const generic = await t.request({
      method: 'GET',
      url: `/api/uploads/${theirs.json().info.upload_id}/${tok.scoped}`,
    });
    expect(generic.statusCode).toBe(404);
    const ownList = await t.request({ method: 'GET', url: url(ownStoreId, tok.scoped) });
    expect(ownList.json().info.items.map((i: { file_name: string }) => i.file_name)).toEqual(['mine.png']);
  });

  it('privileges: a read-only session reads but may not upload or delete (403)', async () => {
    const list = await t.request({ method: 'GET', url: url(storeId, tok.viewer) });
    const id = list.json().info.items[0].id as number;
    expect(
      (await upload(storeId, tok.viewer, file('store_picture', 'v.png', 'image/png', sampleFile('png')))).statusCode,
    ).toBe(403);
    expect((await t.request({ method: 'DELETE', url: url(storeId, tok.viewer, `/${id}`) })).statusCode).toBe(403);
  });

  it('delete removes the file, its upload and its bytes, and is audited', async () => {
    const list = await t.request({ method: 'GET', url: url(storeId, tok.editor) });
    const items = list.json().info.items as Array<{ id: number; upload_id: string }>;
    const victim = items[0]!;
    const before = listFiles(uploadsDir(dataDir)).length;
    const res = await t.request({ method: 'DELETE', url: url(storeId, tok.editor, `/${victim.id}`) });
    expect(res.statusCode, res.body).toBe(200);
    expect(listFiles(uploadsDir(dataDir)).length).toBe(before - 1);
    const after = await t.request({ method: 'GET', url: url(storeId, tok.editor) });
    expect(after.json().info.items).toHaveLength(items.length - 1);
    expect((await t.request({ method: 'GET', url: url(storeId, tok.editor, `/${victim.id}`) })).statusCode).toBe(404);
    expect((await t.request({ method: 'GET', url: `/api/uploads/${victim.upload_id}/${tok.editor}` })).statusCode).toBe(
      404,
    );
    const audits = await auditOf('delete');
    expect(audits.map((a) => Number(a.entity_id))).toEqual([victim.id]);
  });
});
