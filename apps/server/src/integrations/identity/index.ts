import { createLocalJWKSet, createRemoteJWKSet } from 'jose';
import type { AppConfig } from '../../config';
import type { Clock } from '../../lib/clock';
import type { IdentityProvider } from './identity.port';
import { createLocalIssuer } from './local-issuer';
import { verifyIdToken } from './verify-id-token';

export * from './identity.port';

/** Google's issuer (both spellings appear in Google ID tokens) and key set. */
export const GOOGLE_ISSUERS = ['https://accounts.google.com', 'accounts.google.com'];
export const GOOGLE_JWKS_URL = 'https://www.googleapis.com/oauth2/v3/certs';

/** The identity provider IDENTITY_PROVIDER names. Same verification for both; the key source differs. */
export async function createIdentityProvider(config: AppConfig, clock: Clock): Promise<IdentityProvider> {
  const audience = config.oidcClientId;
  if (config.identityProvider === 'google') {
    const keys = createRemoteJWKSet(new URL(GOOGLE_JWKS_URL), { timeoutDuration: 5000 });
    return {
      kind: 'google',
      audience,
      local: null,
      verify: (idtoken, now) => verifyIdToken(idtoken, { keys, issuer: GOOGLE_ISSUERS, audience, now }),
    };
  }
  const local = await createLocalIssuer({
    issuer: config.publicUrl,
    audience,
    keyFile: config.oidcLocalKeyFile,
    clock: () => clock.now(),
  });
  const keys = createLocalJWKSet(local.jwks());
  return {
    kind: 'local',
    audience,
    local,
    verify: (idtoken, now) => verifyIdToken(idtoken, { keys, issuer: local.issuer, audience, now }),
  };
}
