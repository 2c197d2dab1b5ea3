import { describe, expect, it } from 'vitest';
import { fakeJwt } from '../../../test/factories';
import { acceptRedirectResult, adoptProviderAnswer, buildAuthorizeUrl, readJwtClaims } from './oidc-redirect';

describe('the sign-in redirect leg', () => {
  it('builds the provider address with redirect_uri, a fresh state and nonce, remembered for this tab', () => {
    const first = new URL(buildAuthorizeUrl('/oidc/authorize', 'https://bo.example.com'), 'https://bo.example.com');
    const state = first.searchParams.get('state');
    expect(first.pathname).toBe('/oidc/authorize');
    expect(first.searchParams.get('redirect_uri')).toBe('https://bo.example.com/');
    expect(window.sessionStorage.getItem('oidc_state')).toBe(state);
    expect(window.sessionStorage.getItem('oidc_nonce')).toBe(first.searchParams.get('nonce'));

    const second = new URL(buildAuthorizeUrl('/oidc/authorize', 'https://bo.example.com'), 'https://bo.example.com');
    expect(second.searchParams.get('state')).not.toBe(state);
  });

  it('accepts only the answer to this tab’s request, once', () => {
    window.sessionStorage.setItem('oidc_state', 's1');
    window.sessionStorage.setItem('oidc_nonce', 'n1');
    const token = fakeJwt({ nonce: 'n1', email: 'a@example.com' });
    expect(acceptRedirectResult(token, 's1')).toBe(true);
    expect(acceptRedirectResult(token, 's1')).toBe(false);
  });

  it.each([
    ['a different state', fakeJwt({ nonce: 'n1' }), 's2'],
    ['no state', fakeJwt({ nonce: 'n1' }), null],
    ['a different nonce', fakeJwt({ nonce: 'n2' }), 's1'],
    ['no nonce', fakeJwt({}), 's1'],
    ['not a JWT', 'garbage', 's1'],
  ])('refuses %s', (_what, token, state) => {
    window.sessionStorage.setItem('oidc_state', 's1');
    window.sessionStorage.setItem('oidc_nonce', 'n1');
    expect(acceptRedirectResult(token, state)).toBe(false);
  });

  it('reads JWT claims, and null for anything else', () => {
    expect(readJwtClaims(fakeJwt({ email: 'é@example.com' }))).toEqual({ email: 'é@example.com' });
    expect(readJwtClaims('a.b.c')).toBeNull();
    expect(readJwtClaims('')).toBeNull();
  });

  it('moves the provider answer from the query string to the #/login route', () => {
    window.history.replaceState(null, '', '/?id_token=abc.def.ghi&state=s1');
    adoptProviderAnswer();
    expect(window.location.search).toBe('');
    expect(window.location.hash).toBe('#/login?id_token=abc.def.ghi&state=s1');
  });

  it('leaves other addresses alone', () => {
    window.history.replaceState(null, '', '/#/order');
    adoptProviderAnswer();
    expect(window.location.hash).toBe('#/order');
  });
});
