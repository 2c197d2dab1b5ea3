import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { text } from 'node:stream/consumers';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadConfig, type S3Config } from '../../config';
import { createStorage } from './index';
import { createLocalStorage } from './local-storage';
import { createS3Storage } from './s3-storage';
import { EMPTY_SHA256, sha256Hex, signV4 } from './sigv4';
import { isStorageKey } from './storage.port';

describe('SigV4 signing, against AWS documented examples', () => {
  // https://docs.aws.amazon.com/AmazonS3/latest/API/sig-v4-header-based-auth.html ("Examples: Signature Calculations")
  const credentials = {
    accessKeyId: 'AKIAIOSFODNN7EXAMPLE',
    secretAccessKey: 'wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY',
  };

  it('S3 GET Object (examplebucket/test.txt, Range bytes=0-9)', () => {
    const signed = signV4({
      method: 'GET',
      url: new URL('https://examplebucket.s3.amazonaws.com/test.txt'),
      headers: { Range: 'bytes=0-9', 'x-amz-content-sha256': EMPTY_SHA256, 'x-amz-date': '20130524T000000Z' },
      payloadHash: EMPTY_SHA256,
      amzDate: '20130524T000000Z',
      region: 'us-east-1',
      service: 's3',
      credentials,
    });
    expect(signed.canonicalRequest).toBe(
      [
        'GET',
        '/test.txt',
        '',
        'host:examplebucket.s3.amazonaws.com',
        'range:bytes=0-9',
        `x-amz-content-sha256:${EMPTY_SHA256}`,
        'x-amz-date:20130524T000000Z',
        '',
        'host;range;x-amz-content-sha256;x-amz-date',
        EMPTY_SHA256,
      ].join('\n'),
    );
    expect(signed.stringToSign).toBe(
      'AWS4-HMAC-SHA256\n20130524T000000Z\n20130524/us-east-1/s3/aws4_request\n7344ae5b7ee6c3e7e6b0fe0640412a37625d1fbfff95c48bbb2dc43964946972',
    );
    expect(signed.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIAIOSFODNN7EXAMPLE/20130524/us-east-1/s3/aws4_request, SignedHeaders=host;range;x-amz-content-sha256;x-amz-date, Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41',
    );
  });

  it('S3 PUT Object (examplebucket/test$file.text, "Welcome to Amazon S3.")', () => {
    const payloadHash = sha256Hex('Welcome to Amazon S3.');
    expect(payloadHash).toBe('44ce7dd67c959e0d3524ffac1771dfbba87d2b6b4b4e99e42034a8b803f8b072');
    const signed = signV4({
      method: 'PUT',
      url: new URL('https://examplebucket.s3.amazonaws.com/test%24file.text'),
      headers: {
        Date: 'Fri, 24 May 2013 00:00:00 GMT',
        'x-amz-date': '20130524T000000Z',
        'x-amz-storage-class': 'REDUCED_REDUNDANCY',
        'x-amz-content-sha256': payloadHash,
      },
      payloadHash,
      amzDate: '20130524T000000Z',
      region: 'us-east-1',
      service: 's3',
      credentials,
    });
    expect(signed.signature).toBe('98ad721746da40c64f1a55b78f14c238d841ea1380cd77a1b5971af0ece108bd');
  });

  it('the generic test suite "get-vanilla"', () => {
    const signed = signV4({
      method: 'GET',
      url: new URL('https://example.amazonaws.com/'),
      headers: { 'X-Amz-Date': '20150830T123600Z' },
      payloadHash: EMPTY_SHA256,
      amzDate: '20150830T123600Z',
      region: 'us-east-1',
      service: 'service',
      credentials: { accessKeyId: 'AKIDEXAMPLE', secretAccessKey: 'wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY' },
    });
    expect(signed.authorization).toBe(
      'AWS4-HMAC-SHA256 Credential=AKIDEXAMPLE/20150830/us-east-1/service/aws4_request, SignedHeaders=host;x-amz-date, Signature=5fa00fa31553b73ebf1942676e86291e8372ff2a2260956d9b8aae1d763fbf31',
    );
  });
});

describe('storage keys', () => {
  it('accepts server-made keys only', () => {
    expect(isStorageKey('checkImage/2026/11/0123456789abcdef0123456789abcdef.png')).toBe(true);
    for (const bad of [
      '',
      '../etc/passwd',
      'a/../../b',
      '/abs',
      'a//b',
      'a/b.',
      'a b.png',
      'a/./b',
      'x.png/y',
      'a\\b',
      'a.png.html',
    ]) {
      expect(isStorageKey(bad), bad).toBe(false);
    }
  });
});

describe('local storage (DATA_DIR/uploads)', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(path.join(os.tmpdir(), 'pos-storage-'));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('puts, gets and deletes; leaves no partial file; refuses keys that are not server-made', async () => {
    const storage = createLocalStorage(path.join(root, 'uploads'));
    await storage.put('k/2026/11/abc.png', Buffer.from('hello'), 'image/png');
    expect(readdirSync(path.join(root, 'uploads/k/2026/11'))).toEqual(['abc.png']);
    const got = await storage.get('k/2026/11/abc.png');
    expect(got?.size).toBe(5);
    expect(await text(got!.body)).toBe('hello');
    await storage.delete('k/2026/11/abc.png');
    await storage.delete('k/2026/11/abc.png');
    expect(await storage.get('k/2026/11/abc.png')).toBeNull();
    expect(readdirSync(path.join(root, 'uploads/k/2026/11'))).toEqual([]);
    await expect(storage.put('../escape.png', Buffer.from('x'), 'image/png')).rejects.toThrow(/invalid storage key/);
  });

  it('createStorage: the local folder by default', () => {
    expect(createStorage(loadConfig({ NODE_ENV: 'test', DATA_DIR: root })).kind).toBe('local');
  });
});

describe('S3-compatible storage against a local fake S3 that checks signatures', () => {
  let server: Server;
  let config: S3Config;
  const objects = new Map<string, { body: Buffer; type: string }>();
  const requests: string[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const body = Buffer.concat(chunks);
        const url = new URL(req.url ?? '/', `http://${req.headers.host}`);
        requests.push(`${req.method} ${url.pathname}`);
        const auth = req.headers.authorization ?? '';
        const signedHeaders = /SignedHeaders=([^,]+)/.exec(auth)?.[1]?.split(';') ?? [];
        const headers = Object.fromEntries(signedHeaders.map((h) => [h, String(req.headers[h] ?? '')]));
        const amzDate = String(req.headers['x-amz-date'] ?? '');
        const expected = signV4({
          method: req.method ?? 'GET',
          url,
          headers,
          payloadHash: String(req.headers['x-amz-content-sha256']),
          amzDate,
          region: config.region,
          service: 's3',
          credentials: { accessKeyId: config.accessKeyId, secretAccessKey: 'right-secret' },
        });
        const fail = (status: number, code: string) => {
          res.writeHead(status, { 'content-type': 'application/xml' });
          res.end(`<?xml version="1.0"?><Error><Code>${code}</Code></Error>`);
        };
        if (
          auth !== expected.authorization ||
          !signedHeaders.includes('host') ||
          !signedHeaders.includes('x-amz-content-sha256')
        ) {
          return fail(403, 'SignatureDoesNotMatch');
        }
        if (sha256Hex(body) !== req.headers['x-amz-content-sha256']) return fail(400, 'XAmzContentSHA256Mismatch');
        const key = url.pathname;
        if (req.method === 'PUT') {
          objects.set(key, { body, type: String(req.headers['content-type']) });
          res.writeHead(200);
          return void res.end();
        }
        const object = objects.get(key);
        if (req.method === 'GET') {
          if (!object) return fail(404, 'NoSuchKey');
          res.writeHead(200, { 'content-type': object.type, 'content-length': object.body.length });
          return void res.end(object.body);
        }
        if (req.method === 'DELETE') {
          objects.delete(key);
          res.writeHead(204);
          return void res.end();
        }
        fail(405, 'MethodNotAllowed');
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    config = {
      bucket: 'pos-uploads',
      endpoint: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
      accessKeyId: 'AKIDTEST',
      secretAccessKey: 'right-secret',
      region: 'ca-central-1',
    };
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('PUT, GET and DELETE objects path-style with signed requests', async () => {
    const storage = createS3Storage(config);
    expect(storage.kind).toBe('s3');
    const bytes = Buffer.from('%PDF-1.7 fake');
    await storage.put('contract/2026/11/0a1b.pdf', bytes, 'application/pdf');
    expect(objects.get('/pos-uploads/contract/2026/11/0a1b.pdf')).toEqual({ body: bytes, type: 'application/pdf' });
    const got = await storage.get('contract/2026/11/0a1b.pdf');
    expect(got?.size).toBe(bytes.length);
    expect(await text(got!.body)).toBe('%PDF-1.7 fake');
    await storage.delete('contract/2026/11/0a1b.pdf');
    expect(await storage.get('contract/2026/11/0a1b.pdf')).toBeNull();
    expect(requests.slice(-4)).toEqual([
      'PUT /pos-uploads/contract/2026/11/0a1b.pdf',
      'GET /pos-uploads/contract/2026/11/0a1b.pdf',
      'DELETE /pos-uploads/contract/2026/11/0a1b.pdf',
      'GET /pos-uploads/contract/2026/11/0a1b.pdf',
    ]);
  });

  it('a refused signature → unavailable, naming the store error', async () => {
    const storage = createS3Storage({ ...config, secretAccessKey: 'wrong-secret' });
    await expect(storage.put('a/b.png', Buffer.from('x'), 'image/png')).rejects.toMatchObject({
      code: 'unavailable',
      message: 'The file store refused to store the file (HTTP 403 SignatureDoesNotMatch). Try again later.',
    });
  });

  it('config: all five S3_* variables or none', () => {
    const all = {
      NODE_ENV: 'test',
      S3_BUCKET: 'b',
      S3_ENDPOINT: 'https://s3.ca-central-1.amazonaws.com/',
      S3_ACCESS_KEY_ID: 'id',
      S3_SECRET_ACCESS_KEY: 'secret',
      S3_REGION: 'ca-central-1',
    };
    const parsed = loadConfig(all);
    expect(parsed.s3).toEqual({
      bucket: 'b',
      endpoint: 'https://s3.ca-central-1.amazonaws.com',
      accessKeyId: 'id',
      secretAccessKey: 'secret',
      region: 'ca-central-1',
    });
    expect(createStorage(parsed).kind).toBe('s3');
    expect(loadConfig({ NODE_ENV: 'test' }).s3).toBeNull();
    expect(() => loadConfig({ NODE_ENV: 'test', S3_BUCKET: 'b', S3_REGION: 'us-east-1' })).toThrow(
      'S3_*: S3 storage needs all of S3_BUCKET, S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY, S3_REGION (or none, to keep uploads in DATA_DIR/uploads); set S3_BUCKET, S3_REGION but missing S3_ENDPOINT, S3_ACCESS_KEY_ID, S3_SECRET_ACCESS_KEY',
    );
  });
});
