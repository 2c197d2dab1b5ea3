import { randomBytes } from 'node:crypto';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import type { Db } from '../db/client';
import { uploads } from '../db/schema';
import { newUploadPublicId } from '../lib/storage-key';

/** Test helpers for uploads: hand-built multipart bodies, sample files by magic bytes, folder listing. */

export interface MultipartPart {
  name: string;
  /** Present → a file part. */
  filename?: string;
  contentType?: string;
  data: Buffer | string;
}

/** A multipart/form-data body and its Content-Type header, for app.inject. */
export function multipartBody(parts: readonly MultipartPart[]): { payload: Buffer; headers: Record<string, string> } {
  const boundary = `----pos-test-${randomBytes(8).toString('hex')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    const disposition =
      part.filename === undefined
        ? `form-data; name="${part.name}"`
        : // As browsers send it: raw UTF-8, a double quote as %22.
          `form-data; name="${part.name}"; filename="${part.filename.replace(/"/g, '%22')}"`;
    const head = [`--${boundary}`, `Content-Disposition: ${disposition}`];
    if (part.contentType) head.push(`Content-Type: ${part.contentType}`);
    chunks.push(Buffer.from(`${head.join('\r\n')}\r\n\r\n`, 'utf8'));
    chunks.push(typeof part.data === 'string' ? Buffer.from(part.data, 'utf8') : part.data);
    chunks.push(Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { payload: Buffer.concat(chunks), headers: { 'content-type': `multipart/form-data; boundary=${boundary}` } };
}

const SIGNATURES = {
  png: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a],
  jpeg: [0xff, 0xd8, 0xff, 0xe0],
  gif: [...Buffer.from('GIF89a')],
  pdf: [...Buffer.from('%PDF-1.7\n')],
} as const;

/** `size` bytes that start with the magic number of `type` (the rest is random). */
export function sampleFile(type: keyof typeof SIGNATURES, size = 2048): Buffer {
  const bytes = randomBytes(size);
  Buffer.from(SIGNATURES[type]).copy(bytes, 0);
  return bytes;
}

/** Every file under `dir` (relative paths, sorted); a missing folder is empty. */
export function listFiles(dir: string): string[] {
  let entries;
  try {
    entries = readdirSync(dir, { recursive: true, withFileTypes: true });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw err;
  }
  return entries
    .filter((e) => e.isFile())
    .map((e) => path.relative(dir, path.join(e.parentPath, e.name)))
    .sort();
}

/**
 * An `uploads` row made directly (its file need not exist), with a fresh public id; by default a check image nobody
 * attached yet. What the upload service records, for tests that need a row and not an HTTP upload.
 */
export async function insertUpload(
  db: Db,
  values: Partial<typeof uploads.$inferInsert> = {},
): Promise<typeof uploads.$inferSelect> {
  const [row] = await db
    .insert(uploads)
    .values({
      publicId: newUploadPublicId(),
      kind: 'checkImage',
      originalName: 'check.png',
      contentType: 'image/png',
      sizeBytes: 10,
      sha256: 'a'.repeat(64),
      storageKey: `test/${randomBytes(16).toString('hex')}.png`,
      ...values,
    })
    .returning();
  return row!;
}
