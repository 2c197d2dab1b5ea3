import { createHash } from 'node:crypto';
import { UPLOAD_MAX_BYTES, UPLOAD_TOO_LARGE_MESSAGE } from '@pos/domain';
import type { FastifyRequest } from 'fastify';
import { AppError } from '../../http/errors';

/**
 * Limits every upload is parsed with (@fastify/multipart → busboy): one file of at most 5,242,880 bytes, a
 * few small text fields. The request as a whole may exceed the file by MULTIPART_OVERHEAD_BYTES (boundaries,
 * part headers, fields); a larger Content-Length is refused before anything is read.
 */
export const MULTIPART_LIMITS = {
  fileSize: UPLOAD_MAX_BYTES,
  files: 1,
  fields: 10,
  fieldSize: 1024,
  fieldNameSize: 100,
  parts: 20,
  headerPairs: 50,
} as const;
export const MULTIPART_OVERHEAD_BYTES = 64 * 1024;

/** The one file of an upload request, read into memory (≤ 5 MB) and hashed while it streams in. */
export interface ReceivedFile {
  fieldName: string;
  fileName: string;
  declaredType: string;
  bytes: Buffer;
  sha256: string;
  /** The form's text fields sent with the file (e.g. a store file's 'kind'), by name. */
  fields?: Record<string, string>;
}

const tooLarge = (field: string) =>
  new AppError('payload_too_large', UPLOAD_TOO_LARGE_MESSAGE, { [field]: UPLOAD_TOO_LARGE_MESSAGE });

/** A browser's file name, kept for display and Content-Disposition only: no path, no control characters, ≤ 255. */
export function cleanFileName(name: string | undefined): string {
  const base = (name ?? '').split(/[\\/]/).pop() ?? '';
  return (
    base
      .normalize('NFC')
      // eslint-disable-next-line no-control-regex
      .replace(/[\u0000-\u001f\u007f]/g, '')
      .trim()
      .slice(0, 255)
  );
}

/** Map what @fastify/multipart and busboy throw onto our error codes, with a message a person can act on. */
function multipartError(err: unknown, field: string): unknown {
  if (err instanceof AppError) return err;
  const code = (err as { code?: string }).code;
  const message = (err as { message?: string }).message ?? '';
  switch (code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return tooLarge(field);
    case 'FST_FILES_LIMIT':
      return new AppError('bad_request', `Send exactly one file, in the form field '${field}'.`, {
        [field]: 'Only one file is accepted.',
      });
    case 'FST_FIELDS_LIMIT':
    case 'FST_PARTS_LIMIT':
    case 'FST_PROTO_VIOLATION':
      return new AppError(
        'bad_request',
        `The form has too many or unexpected fields; send only the file in the form field '${field}'.`,
      );
    case 'FST_INVALID_MULTIPART_CONTENT_TYPE':
      return new AppError(
        'unsupported_media_type',
        `Send the file as multipart/form-data in the form field '${field}'.`,
      );
    default:
      break;
  }
  if (
    code === 'FST_MP_PREMATURE_CLOSE' ||
    /unexpected end|terminated early|malformed|boundary|multipart/i.test(message)
  ) {
    return new AppError('bad_request', 'The upload was cut off or is not valid multipart/form-data. Try again.');
  }
  return err;
}

/**
 * Read exactly one file from a multipart request, from the form field `field`. Refuses (nothing is kept):
 * not multipart → 415; a file in another field → 400 naming the right field; no file → 400; more than one
 * file → 400; more than 5,242,880 bytes (busboy truncates the stream at the limit and sets `truncated`) → 413.
 */
export async function readSingleFile(request: FastifyRequest, field: string): Promise<ReceivedFile> {
  const declaredLength = Number(request.headers['content-length']);
  if (Number.isFinite(declaredLength) && declaredLength > UPLOAD_MAX_BYTES + MULTIPART_OVERHEAD_BYTES)
    throw tooLarge(field);
  if (!request.isMultipart()) {
    throw new AppError('unsupported_media_type', `Send the file as multipart/form-data in the form field '${field}'.`);
  }
  let received: ReceivedFile | null = null;
  const fields: Record<string, string> = {};
  try {
    for await (const part of request.parts({ limits: MULTIPART_LIMITS })) {
      if (part.type === 'field') {
        if (typeof part.value === 'string') fields[part.fieldname] = part.value;
        continue;
      }
      if (part.fieldname !== field) {
        // Let busboy discard the rest of this file, then refuse.
        part.file.resume();
        throw new AppError(
          'bad_request',
          `The file must be sent in the form field '${field}', not '${part.fieldname}'.`,
          { [field]: `Attach the file under the field name '${field}'.` },
        );
      }
      const hash = createHash('sha256');
      const chunks: Buffer[] = [];
      let size = 0;
      for await (const chunk of part.file as AsyncIterable<Buffer>) {
        hash.update(chunk);
        chunks.push(chunk);
        size += chunk.length;
      }
      if (part.file.truncated || size > UPLOAD_MAX_BYTES) throw tooLarge(field);
      received = {
        fieldName: part.fieldname,
        fileName: cleanFileName(part.filename),
        declaredType: part.mimetype ?? '',
        bytes: Buffer.concat(chunks, size),
        sha256: hash.digest('hex'),
      };
    }
  } catch (err) {
    throw multipartError(err, field);
  }
  if (!received) {
    throw new AppError('bad_request', `Attach a file in the form field '${field}'.`, {
      [field]: 'A file is required.',
    });
  }
  return { ...received, fields };
}
