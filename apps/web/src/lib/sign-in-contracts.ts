import type * as SignInContracts from '@pos/domain/sign-in';

/**
 * Reads an answer of the sign-in calls (auth config, authenticate, permissions, dev ID token, distributor login) with
 * its contract from `@pos/domain/sign-in`. The contracts' module, and zod with it, is loaded here on first use while
 * the call is under way, not with the sign-in page: the first route (#/login) draws without zod (issue 13: its JS
 * ≤ 150 kB gzip; docs/decisions/110). Import those schemas' values only through this function; a static import from
 * `@pos/domain` brings zod back into the first route (`npm run bench` shows it).
 */
export async function readSignInAnswer<T>(
  call: Promise<unknown>,
  contract: (contracts: typeof SignInContracts) => { parse: (value: unknown) => T },
): Promise<T> {
  const [contracts, answer] = await Promise.all([import('@pos/domain/sign-in'), call]);
  return contract(contracts).parse(answer);
}
