import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import type { S3Config } from '../../config';
import { AppError } from '../../http/errors';
import { EMPTY_SHA256, sha256Hex, signV4, toAmzDate, uriEncode } from './sigv4';
import { assertStorageKey, type StoragePort } from './storage.port';

/**
 * An S3-compatible bucket (AWS S3, MinIO, Cloudflare R2, Backblaze B2 …) through plain fetch + SigV4.
 * Objects are addressed path-style: {S3_ENDPOINT}/{S3_BUCKET}/{key}. Payloads are signed (x-amz-content-sha256).
 */
export function createS3Storage(
  config: S3Config,
  deps: { fetch?: typeof fetch; now?: () => Date; timeoutMs?: number } = {},
): StoragePort {
  const doFetch = deps.fetch ?? fetch;
  const now = deps.now ?? (() => new Date());
  const timeoutMs = deps.timeoutMs ?? 30_000;
  const base = config.endpoint.replace(/\/+$/, '');

  const objectUrl = (key: string) => {
    assertStorageKey(key);
    return new URL(`${base}/${uriEncode(config.bucket)}/${key.split('/').map(uriEncode).join('/')}`);
  };

  async function send(
    method: 'PUT' | 'GET' | 'DELETE',
    key: string,
    body?: Uint8Array,
    contentType?: string,
  ): Promise<Response> {
    const url = objectUrl(key);
    const amzDate = toAmzDate(now());
    const payloadHash = body ? sha256Hex(body) : EMPTY_SHA256;
    const headers: Record<string, string> = {
      'x-amz-content-sha256': payloadHash,
      'x-amz-date': amzDate,
      ...(contentType ? { 'content-type': contentType } : {}),
    };
    const { authorization } = signV4({
      method,
      url,
      headers: { host: url.host, ...headers },
      payloadHash,
      amzDate,
      region: config.region,
      service: 's3',
      credentials: config,
    });
    try {
      return await doFetch(url, {
        method,
        headers: { ...headers, authorization },
        ...(body ? { body } : {}),
        signal: AbortSignal.timeout(timeoutMs),
      });
    } catch (err) {
      const name = (err as { name?: string }).name;
      const why =
        name === 'TimeoutError' || name === 'AbortError'
          ? `no answer within ${timeoutMs} ms`
          : 'it could not be reached';
      throw new AppError('unavailable', `The file store is unavailable (${why}). Try again later.`);
    }
  }

  const failed = async (res: Response, what: string) => {
    const text = await res.text().catch(() => '');
    const code = /<Code>([^<]+)<\/Code>/.exec(text)?.[1];
    return new AppError(
      'unavailable',
      `The file store refused to ${what} (HTTP ${res.status}${code ? ` ${code}` : ''}). Try again later.`,
    );
  };

  return {
    kind: 's3',
    async put(key, bytes, contentType) {
      const res = await send('PUT', key, bytes, contentType);
      if (!res.ok) throw await failed(res, 'store the file');
      await res.body?.cancel();
    },
    async get(key) {
      const res = await send('GET', key);
      if (res.status === 404) {
        await res.body?.cancel();
        return null;
      }
      if (!res.ok || !res.body) throw await failed(res, 'read the file');
      const length = Number(res.headers.get('content-length'));
      return {
        body: Readable.fromWeb(res.body as WebReadableStream<Uint8Array>),
        size: Number.isFinite(length) && length >= 0 ? length : null,
      };
    },
    async delete(key) {
      const res = await send('DELETE', key);
      if (!res.ok && res.status !== 404) throw await failed(res, 'delete the file');
      await res.body?.cancel();
    },
  };
}
