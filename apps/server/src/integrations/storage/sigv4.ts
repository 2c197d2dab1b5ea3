import { createHash, createHmac } from 'node:crypto';

/*
 * AWS Signature Version 4 for one request (Authorization header, single-chunk payload), with node:crypto
 * only. https://docs.aws.amazon.com/IAM/latest/UserGuide/create-signed-request.html
 */

export interface SigV4Credentials {
  accessKeyId: string;
  secretAccessKey: string;
}

export interface SigV4Request {
  method: string;
  /** The full URL; its pathname must already be URI-encoded (S3: each key segment once, '/' kept). */
  url: URL;
  /** Headers to sign (names any case). `host` is taken from the URL when absent. */
  headers: Record<string, string>;
  /** Hex SHA-256 of the body (or 'UNSIGNED-PAYLOAD'). */
  payloadHash: string;
  /** 'YYYYMMDDTHHMMSSZ' — must equal the x-amz-date header sent. */
  amzDate: string;
  region: string;
  service: string;
  credentials: SigV4Credentials;
}

export interface SigV4Result {
  authorization: string;
  signature: string;
  signedHeaders: string;
  canonicalRequest: string;
  stringToSign: string;
}

export const EMPTY_SHA256 = 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855';

export const sha256Hex = (data: string | Uint8Array): string => createHash('sha256').update(data).digest('hex');
const hmac = (key: string | Buffer, data: string): Buffer => createHmac('sha256', key).update(data, 'utf8').digest();

/** RFC 3986 encoding as SigV4 wants it (encodeURIComponent leaves !'()* alone). */
export function uriEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** '20130524T000000Z' */
export function toAmzDate(date: Date): string {
  return date
    .toISOString()
    .replace(/[-:]/g, '')
    .replace(/\.\d{3}/, '');
}

function canonicalQuery(url: URL): string {
  const pairs = [...url.searchParams.entries()].map(([k, v]) => [uriEncode(k), uriEncode(v)] as const);
  pairs.sort(([ak, av], [bk, bv]) => (ak < bk ? -1 : ak > bk ? 1 : av < bv ? -1 : av > bv ? 1 : 0));
  return pairs.map(([k, v]) => `${k}=${v}`).join('&');
}

export function signV4(req: SigV4Request): SigV4Result {
  const headers = new Map<string, string>();
  for (const [name, value] of Object.entries(req.headers))
    headers.set(name.toLowerCase(), value.trim().replace(/\s+/g, ' '));
  if (!headers.has('host')) headers.set('host', req.url.host);
  const names = [...headers.keys()].sort();
  const signedHeaders = names.join(';');
  const canonicalRequest = [
    req.method.toUpperCase(),
    req.url.pathname || '/',
    canonicalQuery(req.url),
    names.map((n) => `${n}:${headers.get(n)}\n`).join(''),
    signedHeaders,
    req.payloadHash,
  ].join('\n');
  const day = req.amzDate.slice(0, 8);
  const scope = `${day}/${req.region}/${req.service}/aws4_request`;
  const stringToSign = ['AWS4-HMAC-SHA256', req.amzDate, scope, sha256Hex(canonicalRequest)].join('\n');
  const kDate = hmac(`AWS4${req.credentials.secretAccessKey}`, day);
  const kSigning = hmac(hmac(hmac(kDate, req.region), req.service), 'aws4_request');
  const signature = createHmac('sha256', kSigning).update(stringToSign, 'utf8').digest('hex');
  return {
    authorization: `AWS4-HMAC-SHA256 Credential=${req.credentials.accessKeyId}/${scope}, SignedHeaders=${signedHeaders}, Signature=${signature}`,
    signature,
    signedHeaders,
    canonicalRequest,
    stringToSign,
  };
}
