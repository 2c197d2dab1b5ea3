import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createStaffUser } from '../../db/factories';
import { createTestApp, type TestApp } from '../../test/test-app';

describe('GET /api/currencies/{token}', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await createTestApp();
    await createStaffUser(t.database.db, { email: 'cur@example.com', role: 'IS' });
    const { idtoken } = (
      await t.request({ method: 'POST', url: '/api/dev/idtoken', payload: { email: 'cur@example.com' } })
    ).json().info;
    token = (await t.request({ method: 'POST', url: '/api/auth/authenticate', payload: { idtoken } })).json().info
      .token;
  });
  afterAll(() => t.close());

  it('lists USD and CAD with their symbols', async () => {
    const res = await t.request({ method: 'GET', url: `/api/currencies/${token}` });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({
      info: {
        currencies: [
          { code: 'USD', symbol: '$', name: 'US dollar' },
          { code: 'CAD', symbol: 'C$', name: 'Canadian dollar' },
        ],
      },
    });
  });

  it('filters by ?code= (case-insensitive); an unknown code gives an empty list', async () => {
    expect(
      (await t.request({ method: 'GET', url: `/api/currencies/${token}?code=cad` })).json().info.currencies,
    ).toEqual([{ code: 'CAD', symbol: 'C$', name: 'Canadian dollar' }]);
    expect(
      (await t.request({ method: 'GET', url: `/api/currencies/${token}?code=EUR` })).json().info.currencies,
    ).toEqual([]);
  });

  it('needs a session', async () => {
    expect((await t.request({ method: 'GET', url: '/api/currencies/not-a-session-token-at-all' })).statusCode).toBe(
      403,
    );
  });
});
