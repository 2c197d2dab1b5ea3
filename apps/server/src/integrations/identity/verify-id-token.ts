import { errors, jwtVerify, type JWTVerifyGetKey } from 'jose';
import { IdTokenError, type VerifiedIdentity } from './identity.port';

/** Only asymmetric signatures: `none` and HS256 (a key anyone with the public key could forge) are refused. */
export const ID_TOKEN_ALGORITHMS = ['RS256', 'ES256'];
/** Allowed clock difference between the provider and us. */
export const ID_TOKEN_CLOCK_TOLERANCE_S = 30;

export interface VerifyIdTokenOptions {
  keys: JWTVerifyGetKey;
  issuer: string | string[];
  audience: string;
  /** The app's (injected) clock. */
  now: Date;
}

function refusal(err: unknown): IdTokenError {
  if (err instanceof errors.JWTExpired) return new IdTokenError('expired', 'The ID token has expired.');
  if (err instanceof errors.JWTClaimValidationFailed) {
    if (err.claim === 'iss') return new IdTokenError('wrong_issuer', 'The ID token was issued by another provider.');
    if (err.claim === 'aud')
      return new IdTokenError('wrong_audience', 'The ID token was issued for another application.');
    if (err.claim === 'nbf' || err.claim === 'iat')
      return new IdTokenError('not_yet_valid', 'The ID token is not valid yet.');
    return new IdTokenError('invalid_claims', `The ID token's ${err.claim} claim is not acceptable.`);
  }
  if (err instanceof errors.JOSEAlgNotAllowed || err instanceof errors.JOSENotSupported) {
    return new IdTokenError('algorithm_not_allowed', 'The ID token is not signed with an accepted algorithm.');
  }
  if (err instanceof errors.JWSSignatureVerificationFailed)
    return new IdTokenError('bad_signature', 'The ID token signature is not valid.');
  if (err instanceof errors.JWKSNoMatchingKey || err instanceof errors.JWKSMultipleMatchingKeys) {
    return new IdTokenError('unknown_key', 'The ID token is signed with an unknown key.');
  }
  if (err instanceof errors.JWKSTimeout || err instanceof errors.JWKSInvalid) {
    return new IdTokenError('provider_unavailable', 'The identity provider could not be reached.');
  }
  if (err instanceof errors.JOSEError) return new IdTokenError('malformed', 'The ID token is not well formed.');
  // createRemoteJWKSet lets network failures through as plain errors.
  if (
    err instanceof Error &&
    /fetch|network|ECONN|ENOTFOUND|EAI_AGAIN|timed? ?out/i.test(`${err.name} ${err.message}`)
  ) {
    return new IdTokenError('provider_unavailable', 'The identity provider could not be reached.');
  }
  return new IdTokenError('malformed', 'The ID token is not well formed.');
}

/**
 * The one ID-token check (OpenID Connect core §3.1.3.7) for every provider: signature against the
 * provider's keys with pinned algorithms, iss, aud, exp/nbf at the app's clock, and a verified e-mail.
 */
export async function verifyIdToken(idtoken: string, options: VerifyIdTokenOptions): Promise<VerifiedIdentity> {
  let payload: Record<string, unknown>;
  try {
    ({ payload } = await jwtVerify(idtoken, options.keys, {
      algorithms: ID_TOKEN_ALGORITHMS,
      issuer: options.issuer,
      audience: options.audience,
      currentDate: options.now,
      clockTolerance: ID_TOKEN_CLOCK_TOLERANCE_S,
      requiredClaims: ['exp', 'iat', 'sub'],
    }));
  } catch (err) {
    throw refusal(err);
  }
  const email = payload.email;
  if (typeof email !== 'string' || email.trim() === '')
    throw new IdTokenError('email_missing', 'The ID token carries no e-mail address.');
  const verified = payload.email_verified;
  if (verified !== true && verified !== 'true') {
    throw new IdTokenError('email_unverified', 'The identity provider has not verified this e-mail address.');
  }
  return {
    subject: String(payload.sub),
    email: email.trim(),
    name: typeof payload.name === 'string' ? payload.name : null,
    nonce: typeof payload.nonce === 'string' ? payload.nonce : null,
  };
}
