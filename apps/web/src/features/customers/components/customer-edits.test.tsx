import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/factories';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { customerRoutes, makeCustomer, makeStore, signInAs } from '../lib/test-support';

const ADDRESS = '/api/customers/100001/customerstores/address/tok';

describe('edits on the customer page', () => {
  it('a Canadian store address takes S0S 0S0 and refuses a US ZIP with a field message', async () => {
    let storeVersion = 7;
    const customer = () =>
      makeCustomer({
        country: 'CA',
        currency: 'CAD',
        stores: [makeStore({ country: 'CA', currency: 'CAD', version: storeVersion })],
      });
    const { calls } = fakeApi({
      ...signInAs('Customer Support'),
      ...customerRoutes(customer()),
      // The saved store comes back with a new version (the dialog must still close and say so).
      'GET /api/customers/100001/tok': () => customer(),
      [`POST ${ADDRESS}`]: () => {
        storeVersion = 8;
        return { customer_store_id: 500002, version: 8 };
      },
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=notes');
    await user.click(await screen.findByRole('button', { name: 'Edit address' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit address of store 500002' });
    expect(within(dialog).getByRole('combobox', { name: /Province/ })).toBeTruthy();
    expect(
      within(within(dialog).getByRole('combobox', { name: /Province/ })).getByRole('option', {
        name: 'Saskatchewan (SK)',
      }),
    ).toBeTruthy();

    const zip = within(dialog).getByRole('textbox', { name: /Postal code/ });
    await user.clear(zip);
    await user.type(zip, '12345');
    await user.click(within(dialog).getByRole('button', { name: 'Save address' }));
    expect(await within(dialog).findByText('Canadian postal code must look like A1A 1A1.')).toBeTruthy();
    expect(calls.some((c) => c.path === ADDRESS)).toBe(false);

    await user.clear(zip);
    await user.type(zip, 's0s0s0');
    expect((zip as HTMLInputElement).value).toBe('S0S 0S0');
    await user.click(within(dialog).getByRole('button', { name: 'Save address' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === ADDRESS)).toBe(true));
    expect(calls.find((c) => c.path === ADDRESS)!.body).toEqual({
      address: { address1: '12 Albert St', city: 'Regina', state: 'SK', zip: 'S0S 0S0', country: 'CA' },
      customer_store_id: 500002,
      version: 7,
    });
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(await screen.findByText('The address of store 500002 was saved.')).toBeTruthy();
  });

  it('a server field error on the address shows at its field', async () => {
    fakeApi({
      ...signInAs('Customer Support'),
      ...customerRoutes(makeCustomer()),
      [`POST ${ADDRESS}`]: jsonResponse(400, {
        error: {
          code: 'validation_failed',
          message: 'Check the address.',
          fields: { 'address.city': 'No such city.' },
        },
      }),
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=notes');
    await user.click(await screen.findByRole('button', { name: 'Edit address' }));
    const dialog = await screen.findByRole('dialog');
    await user.click(within(dialog).getByRole('button', { name: 'Save address' }));
    expect(await within(dialog).findByText('No such city.')).toBeTruthy();
  });

  it('a stale edit (409) says someone else changed it and reloads the customer', async () => {
    let version = 5;
    const { calls } = fakeApi({
      ...signInAs('Customer Support'),
      ...customerRoutes(makeCustomer()),
      'GET /api/customers/100001/tok': () =>
        makeCustomer({ version, legal_name: version === 5 ? 'Corner Deli LLC' : 'Corner Deli Holdings LLC' }),
      'PUT /api/customerinfo/100001/tok': () => {
        version = 6;
        return jsonResponse(409, {
          error: { code: 'version_conflict', message: 'The customer was changed by someone else.', current: {} },
        });
      },
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=notes');
    await user.click(await screen.findByRole('button', { name: 'Edit customer' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit customer' });
    const name = within(dialog).getByRole('textbox', { name: /Legal name/ });
    await user.clear(name);
    await user.type(name, 'Corner Deli Inc');
    await user.click(within(dialog).getByRole('button', { name: 'Save customer' }));

    expect(await screen.findByText(/Someone else changed this record while you were editing/)).toBeTruthy();
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ version: 5, legal_name: 'Corner Deli Inc' });
    expect(await screen.findByRole('heading', { name: 'Corner Deli Holdings LLC', level: 1 })).toBeTruthy();
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('the store edit sends only the changed fields with the store version', async () => {
    const { calls } = fakeApi({
      ...signInAs('Customer Support'),
      ...customerRoutes(makeCustomer()),
      'PUT /api/storeinfo/500002/tok': (r: FakeRequest) =>
        makeStore({ version: 4, phone: (r.body as { phone: string }).phone }),
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=notes');
    await user.click(await screen.findByRole('button', { name: 'Edit store' }));
    const dialog = await screen.findByRole('dialog', { name: 'Edit store 500002' });
    const phone = within(dialog).getByRole('textbox', { name: 'Phone' });
    await user.clear(phone);
    await user.type(phone, '306-555-0199');
    await user.click(within(dialog).getByRole('button', { name: 'Save store' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'PUT')).toBe(true));
    expect(calls.find((c) => c.method === 'PUT')!.body).toEqual({ version: 3, phone: '306-555-0199' });
  });

  it('adding a note posts it to the selected store and the list reloads', async () => {
    const notes: unknown[] = [];
    const { calls } = fakeApi({
      ...signInAs('Customer Support'),
      ...customerRoutes(makeCustomer()),
      'GET /api/customers/100001/tok/customernotes': () => ({ items: notes, total: notes.length }),
      'POST /api/customers/100001/tok/customernotes': (r: FakeRequest) => {
        const note = {
          id: 1,
          customer_id: 100001,
          customer_store_id: 500002,
          note_type: 'order_note',
          note: (r.body as { note: string }).note,
          created_by: 'support@example.com',
          created_at: '2026-03-04T09:05:12.000Z',
        };
        notes.unshift(note);
        return note;
      },
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=notes');
    const box = await screen.findByRole('textbox', { name: 'Note' });
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    expect(await screen.findByText('Write the note.')).toBeTruthy();
    await user.type(box, 'Called the owner about the invoice.');
    await user.click(screen.getByRole('button', { name: 'Add note' }));
    const list = screen.getByRole('list', { name: 'Notes' });
    expect(await within(list).findByText('Called the owner about the invoice.')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({
      note: 'Called the owner about the invoice.',
      customer_store_id: 500002,
      note_type: 'order_note',
    });
    expect(
      calls
        .filter((c) => c.method === 'GET' && c.path.endsWith('/customernotes'))
        .at(-1)!
        .query.get('customer_store_id'),
    ).toBe('500002');
    expect((box as HTMLTextAreaElement).value).toBe('');
  });

  it('Validate MID queues the check and shows the CRM answer from the job', async () => {
    const jobId = '11111111-1111-4111-8111-111111111111';
    let looks = 0;
    const { calls } = fakeApi({
      ...signInAs('Customer Support'),
      ...customerRoutes(makeCustomer()),
      'POST /api/zoho/storemidvalidate/tok': jsonResponse(202, { info: { jobId } }),
      [`GET /api/jobs/${jobId}/tok`]: () => {
        looks += 1;
        const done = looks > 1;
        return {
          id: jobId,
          queue: 'crm-store-mid-validate',
          state: done ? 'completed' : 'active',
          retryCount: 0,
          retryLimit: 3,
          createdOn: '2026-03-04T09:05:12.000Z',
          startedOn: null,
          completedOn: null,
          output: done ? { MID: '800000500002', valid: false, reason: 'Store 500009 has this MID.' } : null,
          error: null,
          deadLetterQueue: null,
        };
      },
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=notes');
    await user.click(await screen.findByRole('button', { name: 'Validate MID' }));
    const dialog = await screen.findByRole('dialog', { name: 'Validate MID' });
    const box = within(dialog).getByRole('textbox', { name: 'MID' }) as HTMLInputElement;
    expect(box.value).toBe('800000500002');
    // A malformed MID is refused before the CRM is asked.
    await user.clear(box);
    await user.type(box, '1234');
    await user.click(within(dialog).getByRole('button', { name: 'Validate' }));
    expect(await within(dialog).findByText('A MID is 12 to 16 digits (spaces and dashes are ignored).')).toBeTruthy();
    expect(calls.some((c) => c.path === '/api/zoho/storemidvalidate/tok')).toBe(false);
    await user.clear(box);
    await user.type(box, '8000 0050-0002');
    await user.click(within(dialog).getByRole('button', { name: 'Validate' }));
    expect(
      await within(dialog).findByText(/is not valid: Store 500009 has this MID\./, {}, { timeout: 3000 }),
    ).toBeTruthy();
    expect(looks).toBe(2);
    expect(calls.find((c) => c.path === '/api/zoho/storemidvalidate/tok')!.body).toEqual({
      MID: '800000500002',
      storeid: 500002,
    });
  });
});
