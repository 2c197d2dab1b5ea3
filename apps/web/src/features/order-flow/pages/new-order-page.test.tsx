import { ORDER_STATUS } from '@pos/domain';
import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { makeCustomer, signInAs } from '../../../test/factories';
import { errorResponse, fakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';

/*
 * #/neworder?zoholeadid=… (issue 31 item 4, decision 159): the lead fills the new order's empty fields and marks it
 * as a CRM order; an unknown lead leaves an alert and the plain form.
 */

const LEAD = '/api/crm/leads/5000001/tok';
const CRM = {
  organisation_id: 'local-crm',
  organisation_name: 'Local CRM',
  parent_customer_id: 1,
  requester_tag: 'crm',
  external_order_marker: 'CRM',
};
const lead = (overrides: Record<string, unknown> = {}) => ({
  lead: {
    lead_id: '5000001',
    legal_name: 'Maple Street Grocers LLC',
    dba: 'Maple Street Market',
    first_name: 'Dana',
    last_name: 'Whitfield',
    email: 'dana.whitfield@example.com',
    phone: '(212) 555-0141',
    address1: '418 Maple Street',
    city: 'Brooklyn',
    state: 'NY',
    zip: '11225',
    country: 'US',
    sales_rep_email: 'rep.north@example.com',
    ...overrides,
  },
  crm: CRM,
});
const created = { orderInfoId: 700200, unifiedOrderId: 'UO-20261127-700200', status: ORDER_STATUS.DRAFT, version: 1 };

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

describe('New order from a CRM lead', () => {
  it('shows where the order comes from, fills the empty fields and marks the order as a CRM order', async () => {
    const { calls } = fakeApi({
      ...signInAs('RAM'),
      [`GET ${LEAD}`]: lead(),
      'POST /api/customers/orderinfo/new/tok': created,
      'GET /api/customers/orderinfo/tok': () => errorResponse(404, 'not_found', 'not here'),
    });
    renderApp('#/neworder?zoholeadid=5000001');
    expect(await screen.findByText(/From CRM lead 5000001 \(Local CRM\)/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Start order' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const json = (calls.find((c) => c.method === 'POST')!.body as Json).json as Json;
    expect(json.CrmOrder).toEqual({ leadId: '5000001', externalOrderMarker: 'CRM' });
    expect(json.CustomerInfo).toMatchObject({
      firstName: 'Dana',
      lastName: 'Whitfield',
      email: 'dana.whitfield@example.com',
      phone: '(212) 555-0141',
      legalName: 'Maple Street Grocers LLC',
    });
    expect(json.StoreInfo).toMatchObject({ doingBusinessAs: 'Maple Street Market', storeName: 'Maple Street Market' });
    expect(json.StoreInfo.StoreAddress).toMatchObject({ address1: '418 Maple Street', state: 'NY', zip: '11225' });
    expect(json.HomeAddress).toMatchObject({ city: 'Brooklyn', country: 'US' });
    expect(json.salesRep).toBe('rep.north@example.com');
  });

  it('a Canadian lead starts a Canadian order; what the customer record fills is kept', async () => {
    const { calls } = fakeApi({
      ...signInAs('RAM'),
      'GET /api/customers/tok': { customer_id: 100001 },
      'GET /api/customers/100001/tok': makeCustomer({ country: 'CA', legal_name: 'Kept Legal Name Ltd.' }),
      [`GET ${LEAD}`]: lead({ country: 'CA', state: 'QC', zip: 'H2T 1R8', city: 'Montréal' }),
      'POST /api/customers/orderinfo/new/tok': created,
      'GET /api/customers/orderinfo/tok': () => errorResponse(404, 'not_found', 'not here'),
    });
    renderApp('#/neworder/74-1234567?zoholeadid=5000001');
    expect(await screen.findByText(/From CRM lead 5000001 \(Local CRM\)/)).toBeTruthy();
    await userEvent.click(screen.getByRole('button', { name: 'Start order' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const json = (calls.find((c) => c.method === 'POST')!.body as Json).json as Json;
    expect(json.CustomerInfo.legalName).toBe('Kept Legal Name Ltd.');
    expect(json.StoreInfo.StoreAddress.country).toBe('CA');
    expect(json.CrmOrder.leadId).toBe('5000001');
  });

  it('an unknown lead: an inline alert and the plain form, no CRM mark', async () => {
    const { calls } = fakeApi({
      ...signInAs('RAM'),
      [`GET ${LEAD}`]: errorResponse(404, 'not_found', 'The CRM has no lead 5000001.'),
      'POST /api/customers/orderinfo/new/tok': created,
      'GET /api/customers/orderinfo/tok': () => errorResponse(404, 'not_found', 'not here'),
    });
    renderApp('#/neworder?zoholeadid=5000001');
    const title = await screen.findByText('CRM lead not found');
    expect(title.closest('[role="alert"]')?.textContent).toContain('The CRM has no lead 5000001.');
    expect(screen.queryByText(/From CRM lead/)).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: 'Start order' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST')).toBe(true));
    const json = (calls.find((c) => c.method === 'POST')!.body as Json).json as Json;
    expect(json.CrmOrder).toBeUndefined();
    expect(json.CustomerInfo.firstName).toBe('');
  });
});
