import type { JSONWebKeySet } from 'jose';

/** What a verified ID token tells us about the person signing in. */
export interface VerifiedIdentity {
  subject: string;
  email: string;
  name: string | null;
  nonce: string | null;
}

/** Why an ID token was refused (recorded in the audit trail; never a 500). */
export type IdTokenFailure =
  | 'malformed'
  | 'algorithm_not_allowed'
  | 'bad_signature'
  | 'unknown_key'
  | 'expired'
  | 'not_yet_valid'
  | 'wrong_issuer'
  | 'wrong_audience'
  | 'invalid_claims'
  | 'email_missing'
  | 'email_unverified'
  | 'provider_unavailable';

export class IdTokenError extends Error {
  override name = 'IdTokenError';
  constructor(
    readonly reason: IdTokenFailure,
    message: string,
  ) {
    super(message);
  }
}

/** Claims the local issuer puts in a token it signs (tests may bend the rest through `overrides`). */
export interface LocalIdTokenClaims {
  email: string;
  name?: string;
  sub?: string;
  nonce?: string;
  email_verified?: boolean;
}

export interface LocalSignOptions {
  /** Issue time; the app's clock by default. */
  now?: Date;
  /** Lifetime in seconds (default 3600, like Google's). */
  ttlSeconds?: number;
  /** Tests only: sign a token for a different issuer or audience. */
  issuer?: string;
  audience?: string;
}

/** The built-in OIDC issuer of IDENTITY_PROVIDER=local. */
export interface LocalIssuer {
  readonly issuer: string;
  readonly audience: string;
  /** The public keys (served at /oidc/jwks.json). */
  jwks(): JSONWebKeySet;
  signIdToken(claims: LocalIdTokenClaims, options?: LocalSignOptions): Promise<string>;
}

/** The staff identity provider: one verification path for every mode; only the key source differs. */
export interface IdentityProvider {
  readonly kind: 'local' | 'google';
  /** The `aud` ID tokens must carry (the OAuth client id). */
  readonly audience: string;
  /** Verify signature, iss, aud, exp/nbf (at `now`) and email_verified. */
  verify(idtoken: string, now: Date): Promise<VerifiedIdentity>;
  /** The local issuer (IDENTITY_PROVIDER=local), else null. */
  readonly local: LocalIssuer | null;
}
