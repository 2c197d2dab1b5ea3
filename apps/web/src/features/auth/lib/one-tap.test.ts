import { describe, expect, it } from 'vitest';
import { setFlag, setSession } from '../../../lib/session';
import { makeSession } from '../../../test/factories';
import { oneTapWanted, shouldOfferOneTap } from './one-tap';

describe('one-tap prompt rule (spec §4)', () => {
  it.each([
    [{ isLoggedIn: false, hasToken: false, distributorToken: false }, true],
    [{ isLoggedIn: false, hasToken: true, distributorToken: false }, true],
    [{ isLoggedIn: false, hasToken: true, distributorToken: true }, false],
    [{ isLoggedIn: true, hasToken: true, distributorToken: false }, false],
    [{ isLoggedIn: true, hasToken: false, distributorToken: false }, false],
  ])('%o → %s', (input, expected) => {
    expect(shouldOfferOneTap(input)).toBe(expected);
  });

  it('reads the tab’s session storage', () => {
    expect(oneTapWanted()).toBe(true);
    setSession(makeSession());
    expect(oneTapWanted()).toBe(false);
    window.sessionStorage.setItem('isLoggedIn', 'false');
    setFlag('distributor_token', true);
    expect(oneTapWanted()).toBe(false);
  });
});
