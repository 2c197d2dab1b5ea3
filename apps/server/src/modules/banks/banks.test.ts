import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { banks } from '../../db/schema';
import { signInStaff } from '../../test/sign-in';
import { createTestApp, type TestApp } from '../../test/test-app';

describe('GET /api/customers/paymentinstruments/list/bank/{token}', () => {
  let t: TestApp;
  let token: string;
  const url = (query = '', tok = token) => `/api/customers/paymentinstruments/list/bank/${tok}${query}`;

  beforeAll(async () => {
    t = await createTestApp();
    await t.database.db.insert(banks).values([
      { name: 'Wells Fargo Bank', country: 'US', routingNumber: '121000248' },
      { name: 'Bank of America', country: 'US', routingNumber: '026009593' },
      { name: 'Closed Savings', country: 'US', routingNumber: '011000015', active: false },
      { name: 'Royal Bank of Canada', country: 'CA', institutionNumber: '003' },
      { name: 'Bank of Montreal', country: 'CA', institutionNumber: '001' },
    ]);
    ({ marketing: token } = await signInStaff(t, { marketing: 'Marketing' }));
  });
  afterAll(() => t.close());

  it('lists the active banks of both countries (by country, then name) for any signed-in user', async () => {
    const res = await t.request({ method: 'GET', url: url() });
    expect(res.statusCode, res.body).toBe(200);
    const list = res.json().info.banks as Array<Record<string, unknown>>;
    expect(list.map((b) => b.name)).toEqual([
      'Bank of Montreal',
      'Royal Bank of Canada',
      'Bank of America',
      'Wells Fargo Bank',
    ]);
    expect(list[0]).toEqual({
      id: expect.any(Number),
      name: 'Bank of Montreal',
      country: 'CA',
      routing_number: null,
      institution_number: '001',
    });
    expect(list[2]).toEqual({
      id: expect.any(Number),
      name: 'Bank of America',
      country: 'US',
      routing_number: '026009593',
      institution_number: null,
    });
  });

  it('filters by ?country= (US or CA, any case); another country → 400', async () => {
    const us = (await t.request({ method: 'GET', url: url('?country=US') })).json().info.banks as Array<{
      name: string;
    }>;
    expect(us.map((b) => b.name)).toEqual(['Bank of America', 'Wells Fargo Bank']);
    const ca = (await t.request({ method: 'GET', url: url('?country=ca') })).json().info.banks as Array<{
      name: string;
    }>;
    expect(ca.map((b) => b.name)).toEqual(['Bank of Montreal', 'Royal Bank of Canada']);
    const mx = await t.request({ method: 'GET', url: url('?country=MX') });
    expect(mx.statusCode).toBe(400);
    expect(mx.json().error).toMatchObject({ code: 'validation_failed', fields: { country: 'Choose US or CA.' } });
  });

  it('needs a session', async () => {
    const res = await t.request({ method: 'GET', url: url('', 'Q'.repeat(43)) });
    expect(res.statusCode).toBe(403);
    expect(res.json().error.code).toBe('session_invalid');
  });
});
