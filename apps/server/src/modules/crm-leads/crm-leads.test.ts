import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAgent, createDistributorAccount } from '../../db/factories';
import { orders } from '../../db/schema';
import { AppError } from '../../http/errors';
import { signInStaff } from '../../test/sign-in';
import { completeOrder } from '../../test/orders';
import { createTestApp, type TestApp } from '../../test/test-app';

/* CRM orders (issue 31 item 4, decision 159): GET /api/crm/leads/{leadId}/{token} and the CRM order mark on save. */

let t: TestApp;
let sales: string;
let marketing: string;
let distributor: string;

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

async function call(method: 'GET' | 'POST', url: string, payload?: unknown) {
  const res = await t.request({ method, url, ...(payload === undefined ? {} : { payload: payload as Json }) });
  return { status: res.statusCode, body: res.json() as Json };
}
const lead = (id: string, tok: string) => `/api/crm/leads/${id}/${tok}`;
const save = (id: number | string, tok: string) => `/api/customers/orderinfo/${id}/${tok}`;

beforeAll(async () => {
  t = await createTestApp();
  ({ sales, marketing } = await signInStaff(t, { sales: 'RAM', marketing: 'Marketing' }));
  const agent = await createAgent(t.database.db, { type: 'Distributor' });
  await createDistributorAccount(t.database.db, {
    email: 'dist-crm@example.com',
    password: 'distributor-demo',
    agentId: agent.id,
  });
  const login = await t.request({
    method: 'POST',
    url: '/api/auth/distributor/login',
    payload: { email: 'dist-crm@example.com', password: 'distributor-demo' },
  });
  distributor = login.json().info.token as string;
});
afterAll(() => t.close());

describe('GET /api/crm/leads/{leadId}/{token}', () => {
  it('answers the lead and the CRM order settings to a session that creates orders', async () => {
    for (const tok of [sales, distributor]) {
      const { status, body } = await call('GET', lead('5000001', tok));
      expect(status, JSON.stringify(body)).toBe(200);
      expect(body.info).toEqual({
        lead: expect.objectContaining({
          lead_id: '5000001',
          legal_name: 'Maple Street Grocers LLC',
          dba: 'Maple Street Market',
          country: 'US',
        }),
        crm: {
          organisation_id: 'local-crm',
          organisation_name: 'Local CRM',
          parent_customer_id: 1,
          requester_tag: 'crm',
          external_order_marker: 'CRM',
        },
      });
    }
    expect((await call('GET', lead('5000003', sales))).body.info.lead).toMatchObject({ country: 'CA', state: 'QC' });
  });

  it('unknown lead → 404, an id that is not digits → 400, no privilege → 403', async () => {
    expect(await call('GET', lead('5999999', sales))).toMatchObject({
      status: 404,
      body: { error: { code: 'not_found', message: 'The CRM has no lead 5999999.' } },
    });
    expect((await call('GET', lead('abc', sales))).status).toBe(400);
    expect((await call('GET', lead('5000001', marketing))).status).toBe(403);
  });

  it('the CRM down → 503 with a message', async () => {
    const crm = t.app.ctx.crm;
    t.app.ctx.crm = {
      ...crm,
      getLead: () => Promise.reject(new AppError('unavailable', 'The CRM is unavailable (HTTP 502). Try again later.')),
    };
    try {
      expect(await call('GET', lead('5000001', sales))).toMatchObject({
        status: 503,
        body: { error: { code: 'unavailable', message: 'The CRM is unavailable (HTTP 502). Try again later.' } },
      });
    } finally {
      t.app.ctx.crm = crm;
    }
  });
});

describe('the CRM order mark (decision 159)', () => {
  const documentOf = async (id: number) =>
    (await t.database.db.select().from(orders).where(eq(orders.id, id)))[0]!.document as Json;

  it('an order saved from a lead carries the lead id and the configured marker; later saves keep it', async () => {
    const doc = {
      ...completeOrder(),
      orgId: null,
      orgName: null,
      CrmOrder: { leadId: '5000001', externalOrderMarker: 'FORGED', requesterTag: 'me' },
    };
    const created = await call('POST', save('new', sales), { json: doc });
    expect(created.status, JSON.stringify(created.body)).toBe(200);
    const id = created.body.info.orderInfoId as number;
    const stored = await documentOf(id);
    expect(stored.CrmOrder).toEqual({
      leadId: '5000001',
      externalOrderMarker: 'CRM',
      organisationId: 'local-crm',
      parentCustomerId: 1,
      requesterTag: 'crm',
    });
    expect(stored).toMatchObject({ orgId: 'local-crm', orgName: 'Local CRM' });

    // A save without the mark (or with another lead) keeps the order's first mark.
    const { CrmOrder: _dropped, ...without } = stored;
    const updated = await call('POST', save(id, sales), {
      json: { ...without },
      version: created.body.info.version,
    });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);
    expect((await documentOf(id)).CrmOrder).toEqual(stored.CrmOrder);
    const again = await call('POST', save(id, sales), {
      json: { ...without, CrmOrder: { leadId: '5000002' } },
      version: updated.body.info.version,
    });
    expect(again.status).toBe(200);
    expect((await documentOf(id)).CrmOrder.leadId).toBe('5000001');
  });

  it('an order without a lead is no CRM order; a lead id that is not digits is refused', async () => {
    const plain = await call('POST', save('new', sales), { json: completeOrder() });
    expect(plain.status).toBe(200);
    expect((await documentOf(plain.body.info.orderInfoId as number)).CrmOrder).toBeUndefined();
    const bad = await call('POST', save('new', sales), { json: { ...completeOrder(), CrmOrder: { leadId: 'x1' } } });
    expect(bad.status).toBe(400);
  });
});
