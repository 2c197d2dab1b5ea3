import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { jsonResponse } from '../../../test/factories';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { customerRoutes, makeCustomer, signInAs } from '../lib/test-support';
import { makeCardInstrument, makeTerminal } from '../tabs/test-support';

const INSTRUMENTS = '/api/customers/100001/tok/paymentinstruments';
const TOKENIZE = '/gateway-local/v1/tokens';
const CARD = '4242 4242 4242 4242';
const TOKEN = 'tok_local.eyJicmFuZCI6InZpc2EifQ.c2ln';

function server() {
  let saved = false;
  const tokenized: FakeRequest[] = [];
  const api = fakeApi({
    ...signInAs('Customer Support'),
    ...customerRoutes(makeCustomer()),
    [`GET ${INSTRUMENTS}`]: () => ({ items: saved ? [makeCardInstrument()] : [], total: saved ? 1 : 0 }),
    'GET /api/customers/paymentinstruments/gateway/tok': { provider: 'local', tokenize_url: TOKENIZE, available: true },
    [`POST ${TOKENIZE}`]: (r: FakeRequest) => {
      tokenized.push(r);
      return jsonResponse(201, { token: TOKEN, brand: 'visa', last4: '4242', exp_month: 12, exp_year: 2030 });
    },
    [`POST ${INSTRUMENTS}`]: () => {
      saved = true;
      return jsonResponse(201, { info: makeCardInstrument() });
    },
    'GET /api/customers/100001/tok/customerterminals': { items: [makeTerminal()], total: 1 },
  });
  return { ...api, tokenized };
}

async function fillCard(user: ReturnType<typeof userEvent.setup>, number: string) {
  const form = await screen.findByRole('form', { name: 'Card' });
  await user.type(within(form).getByRole('textbox', { name: /Name on card/ }), 'Pat Owner');
  await user.type(within(form).getByRole('textbox', { name: /Card number/ }), number);
  await user.type(within(form).getByRole('textbox', { name: /Expiry month/ }), '12');
  await user.type(within(form).getByRole('textbox', { name: /Expiry year/ }), '2030');
  await user.type(within(form).getByRole('textbox', { name: /Security code/ }), '123');
  return form;
}

describe('Edit payment (#/editpayment): a card', () => {
  it('the card number goes to the gateway only; our API gets the token and the page shows the masked card', async () => {
    const { calls, fetchMock, tokenized } = server();
    const user = userEvent.setup();
    const { queryClient } = renderApp('#/editpayment?customer=100001&store=500002');
    const form = await fillCard(user, CARD);
    await user.click(within(form).getByRole('button', { name: 'Save card' }));

    const saved = await screen.findByText(/Visa ending 4242, expires 12\/2030/);
    expect(saved.closest('[role="status"]')).toBeTruthy();
    await waitFor(() => expect(calls.some((c) => c.method === 'POST' && c.path === INSTRUMENTS)).toBe(true));

    expect(tokenized).toHaveLength(1);
    expect(tokenized[0]!.body).toEqual({
      number: '4242424242424242',
      exp_month: 12,
      exp_year: 2030,
      cvc: '123',
      name: 'Pat Owner',
    });
    expect(calls.find((c) => c.method === 'POST' && c.path === INSTRUMENTS)!.body).toEqual({
      kind: 'card',
      card_token: TOKEN,
      name_on_account: 'Pat Owner',
      store_id: 500002,
      make_default: true,
    });

    // No call to our API carries the number (body, path or query), nor the security code.
    const digits = /4242\s?4242\s?4242\s?4242/;
    for (const [url, init] of fetchMock.mock.calls) {
      if (!String(url).startsWith('/api/')) continue;
      expect(String(url)).not.toMatch(digits);
      expect(String(init?.body ?? '')).not.toMatch(digits);
      expect(String(init?.body ?? '')).not.toContain('"cvc"');
    }
    // The gateway call carries no session token and no cookies.
    const gatewayCall = fetchMock.mock.calls.find(([url]) => String(url) === TOKENIZE)!;
    expect(String(gatewayCall[0])).not.toContain('tok/');
    expect(gatewayCall[1]?.credentials).toBe('same-origin');
    // Nor does anything the app keeps: queries and mutations.
    const cached = JSON.stringify([
      queryClient
        .getQueryCache()
        .getAll()
        .map((q) => q.state.data),
      queryClient
        .getMutationCache()
        .getAll()
        .map((m) => m.state.variables),
    ]);
    expect(cached).not.toMatch(digits);
    // The card fields are cleared after the save.
    expect((within(form).getByRole('textbox', { name: /Card number/ }) as HTMLInputElement).value).toBe('');
    const onFile = await screen.findByRole('table', { name: 'Payment methods on file' });
    expect(await within(onFile).findByText('Visa ending 4242')).toBeTruthy();
  });

  it('a mistyped number is caught before any call', async () => {
    const { calls, tokenized } = server();
    const user = userEvent.setup();
    renderApp('#/editpayment?customer=100001&store=500002');
    const form = await fillCard(user, '4242 4242 4242 4241');
    await user.click(within(form).getByRole('button', { name: 'Save card' }));
    expect(await within(form).findByText('Enter a valid card number.')).toBeTruthy();
    expect(tokenized).toHaveLength(0);
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('sends the merchant the payment-update link for a terminal of the store', async () => {
    const posts: FakeRequest[] = [];
    fakeApi({
      ...signInAs('Customer Support'),
      ...customerRoutes(makeCustomer()),
      [`GET ${INSTRUMENTS}`]: { items: [], total: 0 },
      'GET /api/customers/paymentinstruments/gateway/tok': {
        provider: 'local',
        tokenize_url: TOKENIZE,
        available: true,
      },
      'GET /api/customers/100001/tok/customerterminals': {
        items: [makeTerminal(), makeTerminal({ id: 18, elmer_id: '3000127', status: 'retired' })],
        total: 2,
      },
      'POST /api/customers/notifications/updatepayment/tok': (r: FakeRequest) => {
        posts.push(r);
        return jsonResponse(202, { info: { jobId: 'job-link' } });
      },
    });
    const user = userEvent.setup();
    renderApp('#/editpayment?customer=100001&store=500002');
    const section = await screen.findByRole('region', { name: 'Send the merchant a payment-update link' });
    const select = await within(section).findByRole('combobox', { name: 'Terminal' });
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['3000120 (serial SN-000017)']),
    );
    await user.click(within(section).getByRole('button', { name: 'Send payment-update link' }));
    expect((await within(section).findByRole('status')).textContent).toContain('job-link');
    expect(posts[0]!.body).toEqual({ elmer_id: '3000120' });
  });

  it('without a customer in the address it says where to come from, with a Back link', async () => {
    fakeApi({ ...signInAs('Customer Support') });
    renderApp('#/editpayment');
    expect(await screen.findByText(/Open it from the customer page/)).toBeTruthy();
    expect(screen.getByRole('link', { name: /Back to the customer/ }).getAttribute('href')).toBe('#/customer');
  });

  it('a bank account: the bank fills the routing number, the check image is uploaded and linked', async () => {
    const uploads: FakeRequest[] = [];
    const { calls, fetchMock } = fakeApi({
      ...signInAs('Customer Support'),
      ...customerRoutes(makeCustomer()),
      [`GET ${INSTRUMENTS}`]: { items: [], total: 0 },
      'GET /api/customers/paymentinstruments/gateway/tok': {
        provider: 'local',
        tokenize_url: TOKENIZE,
        available: true,
      },
      'GET /api/customers/100001/tok/customerterminals': { items: [], total: 0 },
      'GET /api/customers/paymentinstruments/list/bank/tok': {
        banks: [
          { id: 4, name: 'First Test Bank', country: 'US', routing_number: '011000015', institution_number: null },
        ],
      },
      'POST /api/customers/paymentinstruments/check/addimage/tok': (r: FakeRequest) => {
        uploads.push(r);
        return jsonResponse(201, {
          info: {
            upload_id: 'Y2hlY2staW1hZ2UtZWRpdC1wYXltZW50',
            sha256: 'a'.repeat(64),
            size: 4,
            content_type: 'image/png',
            original_name: 'check.png',
          },
        });
      },
      [`POST ${INSTRUMENTS}`]: jsonResponse(201, {
        info: makeCardInstrument({
          kind: 'bank',
          card: null,
          bank: {
            bank_name: 'First Test Bank',
            routing_number: '011000015',
            institution_number: null,
            account_last4: '6789',
            account_type: 'checking',
          },
        }),
      }),
    });
    const user = userEvent.setup();
    renderApp('#/editpayment?customer=100001&store=500002');
    await user.click(await screen.findByRole('radio', { name: 'Bank account' }));
    const form = await screen.findByRole('form', { name: 'Bank account' });
    expect(within(form).queryByRole('textbox', { name: /Institution number/ })).toBeNull();
    await waitFor(() => expect(within(form).getAllByRole('option').length).toBe(2));
    await user.selectOptions(within(form).getByRole('combobox', { name: /Bank/ }), 'First Test Bank');
    expect((within(form).getByRole('textbox', { name: /Routing number/ }) as HTMLInputElement).value).toBe('011000015');
    await user.type(within(form).getByRole('textbox', { name: /Name on account/ }), 'Pat Owner');
    await user.click(within(form).getByRole('button', { name: 'Save bank account' }));
    expect(await within(form).findByText('An account number has 4–17 digits.')).toBeTruthy();
    expect(uploads).toHaveLength(0);

    await user.type(within(form).getByRole('textbox', { name: /Account number/ }), '123456789');
    await user.upload(
      within(form).getByLabelText('Check image'),
      new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], 'check.png', { type: 'image/png' }),
    );
    await within(form).findByText(/check\.png/);
    await user.click(within(form).getByRole('button', { name: 'Save bank account' }));
    expect(await screen.findByText(/First Test Bank ending 6789/, { selector: '[role="status"] *' })).toBeTruthy();
    expect(uploads).toHaveLength(1);
    const uploadInit = fetchMock.mock.calls.find(([url]) => String(url).endsWith('/check/addimage/tok'))![1]!;
    expect((uploadInit.body as FormData).get('checkimage')).toBeInstanceOf(File);
    expect(calls.find((c) => c.method === 'POST' && c.path === INSTRUMENTS)!.body).toEqual({
      kind: 'bank',
      name_on_account: 'Pat Owner',
      routing_number: '011000015',
      account_number: '123456789',
      account_type: 'checking',
      bank_name: 'First Test Bank',
      store_id: 500002,
      make_default: true,
      check_image_upload_id: 'Y2hlY2staW1hZ2UtZWRpdC1wYXltZW50',
    });
  });
});
