import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import {
  calculateJwkThumbprint,
  exportJWK,
  generateKeyPair,
  importJWK,
  SignJWT,
  type CryptoKey,
  type JWK,
  type JSONWebKeySet,
} from 'jose';
import type { LocalIdTokenClaims, LocalIssuer, LocalSignOptions } from './identity.port';

const ALG = 'ES256';

interface StoredKey {
  kid: string;
  alg: typeof ALG;
  privateJwk: JWK;
  publicJwk: JWK;
}

async function newKey(): Promise<StoredKey> {
  const { privateKey, publicKey } = await generateKeyPair(ALG, { extractable: true });
  const publicJwk = await exportJWK(publicKey);
  const kid = await calculateJwkThumbprint(publicJwk);
  return {
    kid,
    alg: ALG,
    privateJwk: await exportJWK(privateKey),
    publicJwk: { ...publicJwk, kid, alg: ALG, use: 'sig' },
  };
}

function readKey(file: string): StoredKey | null {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw err;
  }
  const parsed = JSON.parse(text) as Partial<StoredKey>;
  if (parsed.alg !== ALG || !parsed.kid || !parsed.privateJwk || !parsed.publicJwk) {
    throw new Error(`${file} is not a key file of the local identity provider; delete it to make a new one`);
  }
  return parsed as StoredKey;
}

/** The key pair is made once and kept in `keyFile` (mode 600); with no file (tests) it lives in memory. */
async function loadOrCreateKey(keyFile: string | null): Promise<StoredKey> {
  if (!keyFile) return newKey();
  const existing = readKey(keyFile);
  if (existing) return existing;
  const key = await newKey();
  mkdirSync(path.dirname(keyFile), { recursive: true });
  try {
    writeFileSync(keyFile, JSON.stringify(key, null, 2), { mode: 0o600, flag: 'wx' });
    return key;
  } catch (err) {
    // Another process wrote it first: use theirs.
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return readKey(keyFile) ?? key;
    throw err;
  }
}

/** The built-in OIDC issuer: signs ID tokens for the demo chooser and `POST /api/dev/idtoken`. */
export async function createLocalIssuer(options: {
  issuer: string;
  audience: string;
  keyFile: string | null;
  clock: () => Date;
}): Promise<LocalIssuer> {
  const stored = await loadOrCreateKey(options.keyFile);
  const privateKey = (await importJWK(stored.privateJwk, ALG)) as CryptoKey;
  const jwks: JSONWebKeySet = { keys: [stored.publicJwk] };

  return {
    issuer: options.issuer,
    audience: options.audience,
    jwks: () => jwks,
    async signIdToken(claims: LocalIdTokenClaims, sign: LocalSignOptions = {}) {
      const now = Math.floor((sign.now ?? options.clock()).getTime() / 1000);
      const email = claims.email.trim();
      return new SignJWT({
        email,
        email_verified: claims.email_verified ?? true,
        ...(claims.name ? { name: claims.name } : {}),
        ...(claims.nonce ? { nonce: claims.nonce } : {}),
      })
        .setProtectedHeader({ alg: ALG, kid: stored.kid, typ: 'JWT' })
        .setIssuer(sign.issuer ?? options.issuer)
        .setAudience(sign.audience ?? options.audience)
        .setSubject(claims.sub ?? email.toLowerCase())
        .setIssuedAt(now)
        .setNotBefore(now)
        .setExpirationTime(now + (sign.ttlSeconds ?? 3600))
        .sign(privateKey);
    },
  };
}
