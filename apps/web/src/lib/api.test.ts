import { describe, expect, it, vi } from 'vitest';
import { jsonResponse, makeSession } from '../test/factories';
import { api, ApiError, apiUrl, isConflict, isVersionConflict, NETWORK_ERROR_MESSAGE } from './api';
import { getToken, isLoggedIn, setSession } from './session';

function stubFetch(response: Response | (() => Promise<Response>)) {
  const fetchMock = vi.fn<typeof fetch>(() =>
    typeof response === 'function' ? response() : Promise.resolve(response),
  );
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function sentRequest(fetchMock: ReturnType<typeof stubFetch>, call = 0) {
  const args = fetchMock.mock.calls[call];
  if (!args) throw new Error(`fetch call ${call} was not made`);
  const [url, init] = args;
  return { url: String(url), init: init ?? {}, headers: new Headers(init?.headers) };
}

describe('apiUrl', () => {
  it('fills {token} from the session store, URL-encoded', () => {
    setSession(makeSession({ token: 'a/b c' }));
    expect(apiUrl('/api/auth/validate/{token}')).toBe('/api/auth/validate/a%2Fb%20c');
  });

  it('fills other {name} params, URL-encoded', () => {
    setSession(makeSession({ token: 'tok' }));
    expect(apiUrl('/api/customers/{id}/{token}/transactions/{txId}', { id: 42, txId: 'x&y' })).toBe(
      '/api/customers/42/tok/transactions/x%26y',
    );
  });

  it('treats a missing token like an ended session', () => {
    expect(() => apiUrl('/api/currencies/{token}')).toThrowError(
      expect.objectContaining({ status: 403, code: 'no_session' }),
    );
  });

  it('refuses a path with an unfilled parameter', () => {
    expect(() => apiUrl('/api/customers/{id}/x')).toThrow(/\{id\}/);
  });
});

describe('api', () => {
  it('returns the info of a success envelope and sends JSON with same-origin credentials', async () => {
    setSession(makeSession({ token: 'tok' }));
    const fetchMock = stubFetch(jsonResponse(200, { info: { customer_id: 7 } }));

    const info = await api.post<{ customer_id: number }>(
      '/api/customers/{id}/customernotes/{token}',
      { note: 'hi' },
      { params: { id: 3 } },
    );

    expect(info).toEqual({ customer_id: 7 });
    const { url, init, headers } = sentRequest(fetchMock);
    expect(url).toBe('/api/customers/3/customernotes/tok');
    expect(init.method).toBe('POST');
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe(JSON.stringify({ note: 'hi' }));
    expect(headers.get('Content-Type')).toBe('application/json');
  });

  it('adds a query string without empty values', async () => {
    setSession(makeSession({ token: 'tok' }));
    const fetchMock = stubFetch(jsonResponse(200, { info: [] }));
    await api.get('/api/customers/getagents/{token}', {
      query: { types: ['REFP', 'Distributor'], search: undefined, email: null },
    });
    expect(sentRequest(fetchMock).url).toBe('/api/customers/getagents/tok?types=REFP%2CDistributor');
  });

  it('throws an ApiError with status, code, message and fields from an error envelope', async () => {
    setSession(makeSession());
    stubFetch(
      jsonResponse(422, {
        error: { code: 'validation', message: 'The e-mail is not valid', fields: { email: 'Enter a valid e-mail' } },
      }),
    );

    const error = await api
      .put('/api/auth/getIdOrUpdateLoginRolePrivilegeEmail/{token}', { email: 'x' })
      .catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({
      status: 422,
      code: 'validation',
      message: 'The e-mail is not valid',
      fields: { email: 'Enter a valid e-mail' },
    });
    expect(getToken()).toBe('tok-123');
  });

  it('makes an error from a failure without an envelope', async () => {
    setSession(makeSession());
    stubFetch(new Response('Bad gateway', { status: 502 }));
    await expect(api.get('/api/currencies/{token}')).rejects.toMatchObject({ status: 502, code: 'http_502' });
  });

  it('on HTTP 403 clears the stored token and goes to #/login', async () => {
    setSession(makeSession());
    window.location.hash = '#/order';
    stubFetch(jsonResponse(403, { error: { code: 'session_expired', message: 'Your session has expired.' } }));

    await expect(api.get('/api/currencies/{token}')).rejects.toMatchObject({ status: 403, code: 'session_expired' });

    expect(getToken()).toBeNull();
    expect(isLoggedIn()).toBe(false);
    expect(window.sessionStorage.getItem('sessionInfo')).toBeNull();
    expect(window.location.hash).toBe('#/login');
  });

  it('sends X-XSRF-TOKEN from the XSRF-TOKEN cookie on a non-GET relative request only', async () => {
    setSession(makeSession({ token: 'tok' }));
    document.cookie = 'XSRF-TOKEN=xsrf%3Dvalue; path=/';
    const fetchMock = stubFetch(() => Promise.resolve(jsonResponse(200, { info: null })));

    await api.post('/api/paymentauthorizations/{token}', {});
    await api.get('/api/currencies/{token}');
    await api.post('https://gateway.example.com/customers/{id}/{token}', {}, { params: { id: 1 } });
    await api.delete('/api/customers/{token}/customerterminals/{id}', undefined, { params: { id: 9 } });

    expect(sentRequest(fetchMock, 0).headers.get('X-XSRF-TOKEN')).toBe('xsrf=value');
    expect(sentRequest(fetchMock, 1).headers.has('X-XSRF-TOKEN')).toBe(false);
    expect(sentRequest(fetchMock, 2).headers.has('X-XSRF-TOKEN')).toBe(false);
    expect(sentRequest(fetchMock, 3).headers.get('X-XSRF-TOKEN')).toBe('xsrf=value');
  });

  it('sends the Idempotency-Key header when asked', async () => {
    setSession(makeSession());
    const fetchMock = stubFetch(jsonResponse(202, { info: { jobId: 'j1' } }));
    const info = await api.post('/api/storeinfo/sns/{token}', {}, { idempotencyKey: 'key-1' });
    expect(info).toEqual({ jobId: 'j1' });
    expect(sentRequest(fetchMock).headers.get('Idempotency-Key')).toBe('key-1');
  });

  it('turns a network failure into ApiError code network telling the user to check the connection', async () => {
    setSession(makeSession());
    stubFetch(() => Promise.reject(new TypeError('Failed to fetch')));
    await expect(api.get('/api/currencies/{token}')).rejects.toMatchObject({
      status: 0,
      code: 'network',
      message: NETWORK_ERROR_MESSAGE,
    });
    expect(NETWORK_ERROR_MESSAGE).toMatch(/check your internet connection and try again/i);
  });

  it('without a token does not call the server and goes to #/login', async () => {
    const fetchMock = stubFetch(jsonResponse(200, { info: null }));
    await expect(api.get('/api/currencies/{token}')).rejects.toMatchObject({ code: 'no_session' });
    expect(fetchMock).not.toHaveBeenCalled();
    expect(window.location.hash).toBe('#/login');
  });

  it('returns undefined for an empty success body', async () => {
    setSession(makeSession());
    stubFetch(new Response(null, { status: 204 }));
    await expect(api.delete('/api/customers/agentorders/{token}/delete', { id: 1 })).resolves.toBeUndefined();
  });
});

describe('conflicts', () => {
  const stale = new ApiError({
    status: 409,
    code: 'version_conflict',
    message: 'Store 500002 was changed by someone else',
  });
  const refused = new ApiError({ status: 409, code: 'conflict', message: 'Terminal 3000120 is already retired' });
  const invalid = new ApiError({ status: 400, code: 'validation_failed', message: 'Check the fields' });

  it('a version conflict is a 409 version_conflict: someone else saved first', () => {
    expect(isVersionConflict(stale)).toBe(true);
    expect(isVersionConflict(refused)).toBe(false);
    expect(isVersionConflict(invalid)).toBe(false);
    expect(isVersionConflict(new Error('version_conflict'))).toBe(false);
  });

  it('any 409 means the record on the screen is out of date', () => {
    expect(isConflict(stale)).toBe(true);
    expect(isConflict(refused)).toBe(true);
    expect(isConflict(invalid)).toBe(false);
    expect(isConflict(undefined)).toBe(false);
  });
});
