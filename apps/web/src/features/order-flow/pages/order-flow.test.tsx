import { blankOrder, ORDER_STATUS, PAYMENT_PLAN_KIND, type OrderDocument } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { jsonResponse, signInAs } from '../../../test/factories';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { markFromNewOrder, pendingDraft } from '../lib/draft-store';

/*
 * The order flow in the browser's DOM (issue 7, decision 090): the milestone bar per step and origin, ZIP rules by
 * country, a save that fails for want of a connection kept on the device and sent again, 400 field errors shown.
 */

const ORDER = 700123;
const INFO = '/api/customers/orderinfo/tok';
const SAVE = `/api/customers/orderinfo/${ORDER}/tok`;

function record(doc: OrderDocument, version = 1, status: string = ORDER_STATUS.DRAFT) {
  return {
    order: {
      orderInfoId: ORDER,
      unifiedOrderId: 'UO-20261124-700123',
      status,
      flow: 'AR',
      order_type: doc.orderType ?? 'P',
      sales_rep: null,
      agent_id: null,
      customer_id: null,
      version,
      updated_at: '2026-11-24T10:00:00.000Z',
      json: doc,
    },
  };
}

function filled(country: 'US' | 'CA' = 'US', orderType: 'P' | 'N' = 'P'): OrderDocument {
  const d = blankOrder();
  d.orderType = orderType;
  const a =
    country === 'US'
      ? { address1: '1 Main', address2: '', city: 'Austin', state: 'TX', zip: '78701', country }
      : { address1: '1 Main', address2: '', city: 'Regina', state: 'SK', zip: 'S4P 3Y2', country };
  d.CustomerInfo = {
    ...d.CustomerInfo,
    firstName: 'Ana',
    lastName: 'Diaz',
    email: 'ana@shop.example',
    phone: '5125550100',
    federalTaxId: '74-1',
  };
  d.HomeAddress = { ...a };
  d.BillingAddress = { ...a };
  d.ShippingAddress = { ...a };
  d.StoreInfo = {
    ...d.StoreInfo,
    doingBusinessAs: 'Ana Mart',
    storeName: 'Ana Mart 1',
    phone: '5125550101',
    StoreAddress: { ...a },
  };
  return d;
}

const bar = () => within(screen.getByRole('navigation', { name: 'Order progress' }));

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

describe('order flow steps', () => {
  it('POS from the new-order page: four milestones, the first labelled ORDER, the current one marked', async () => {
    fakeApi({ ...signInAs('RAM'), [`GET ${INFO}`]: record(filled()) });
    markFromNewOrder(ORDER);
    renderApp(`#/store-info/${ORDER}`);
    await screen.findByRole('form', { name: 'Store information' });
    await waitFor(() =>
      expect(
        bar()
          .getAllByRole('listitem')
          .map((li) => li.textContent?.replace(/^\d+/, '')),
      ).toEqual(['ORDER', 'SELECT HARDWARE', 'PAYMENT (PLAN / METHOD)', 'Recurring charges']),
    );
    expect(bar().getByText('ORDER').closest('li')?.getAttribute('aria-current')).toBe('step');
  });

  it('non-POS opened directly: two milestones, Store information and Recurring charges', async () => {
    fakeApi({ ...signInAs('RAM'), [`GET ${INFO}`]: record(filled('US', 'N')) });
    renderApp(`#/charges/${ORDER}`);
    await screen.findByRole('form', { name: 'Recurring charges' });
    await waitFor(() =>
      expect(
        bar()
          .getAllByRole('listitem')
          .map((li) => li.textContent?.replace(/^\d+/, '')),
      ).toEqual(['Store information', 'Recurring charges']),
    );
    expect(bar().getByText('Recurring charges').closest('li')?.getAttribute('aria-current')).toBe('step');
  });

  it('the one-time charges offer shipping and promotions, never an internal fee item (decision 149)', async () => {
    const item = (billing_item_id: number, name: string, unit_price_cents: number) => ({
      billing_item_id,
      name,
      category: null,
      feature: 'N' as const,
      charge_at_level: 'S' as const,
      recurring: false,
      active: true,
      unit_price_cents,
      currency: 'USD' as const,
    });
    fakeApi({
      ...signInAs('RAM'),
      [`GET ${INFO}`]: record(filled()),
      'GET /api/products/tok/all': { currency: 'USD', products: [] },
      'GET /api/bundles/tok/all': { currency: 'USD', bundles: [] },
      'GET /api/customers/billingitems/tok/all': {
        currency: 'USD',
        billing_items: [
          item(20, 'Shipping', 49_00),
          item(66, 'Spring promotion', 0),
          item(6, 'Sales tax', 0),
          item(28, 'Restocking fee', 250_00),
          item(91, 'Cancellation fee', 250_00),
          item(92, 'Failed payment fee', 25_00),
          item(53, 'Cash / check payment fee', 5_00),
        ],
      },
    });
    renderApp(`#/sale-summary/${ORDER}`);
    const charges = await screen.findByRole('table', { name: 'One-time charges' });
    await waitFor(() =>
      expect(
        within(charges)
          .getAllByRole('row')
          .slice(1)
          .map((r) => r.querySelector('td')?.textContent),
      ).toEqual(['Shipping', 'Spring promotion']),
    );
  });

  it('Recurring charges: the amount starts from the plan’s list price, the other plan’s when it changes', async () => {
    const fee = (billing_item_id: number, name: string, unit_price_cents: number) => ({
      billing_item_id,
      name,
      category: null,
      feature: 'N' as const,
      charge_at_level: 'S' as const,
      recurring: true,
      active: true,
      unit_price_cents,
      currency: 'USD' as const,
    });
    fakeApi({
      ...signInAs('RAM'),
      [`GET ${INFO}`]: record(filled('US', 'N')),
      'GET /api/customers/billingitems/tok/all': {
        currency: 'USD',
        billing_items: [fee(8, 'Monthly service fee', 59_00), fee(9, 'Yearly service fee', 590_00)],
      },
    });
    const user = userEvent.setup();
    renderApp(`#/charges/${ORDER}`);
    const amount = await screen.findByRole('textbox', { name: /Monthly amount/ });
    await waitFor(() => expect((amount as HTMLInputElement).value).toBe('59.00'));
    await user.click(screen.getByRole('radio', { name: 'Yearly plan' }));
    const yearly = await screen.findByRole('textbox', { name: /Yearly amount/ });
    expect((yearly as HTMLInputElement).value).toBe('590.00');
    await user.clear(yearly);
    await user.type(yearly, '500.00');
    expect((yearly as HTMLInputElement).value).toBe('500.00');
  });

  it('a Canadian store asks for a province and a postal code A1A 1A1', async () => {
    fakeApi({ ...signInAs('RAM'), [`GET ${INFO}`]: record(filled('CA')) });
    const user = userEvent.setup();
    renderApp(`#/store-info/${ORDER}`);
    const home = await screen.findByRole('group', { name: 'Legal (home) address' });
    expect((within(home).getByRole('combobox', { name: /Province/ }) as HTMLSelectElement).value).toBe('SK');
    const postal = within(home).getByRole('textbox', { name: /Postal code/ });
    await user.clear(postal);
    await user.type(postal, '12345');
    expect((postal as HTMLInputElement).value).toBe('');
    await user.type(postal, 's4p');
    await user.tab();
    expect(await within(home).findByText('Canadian postal code must look like A1A 1A1.')).toBeTruthy();
  });

  it('a save that fails for want of a connection moves on, keeps the document on the device and sends it again', async () => {
    let online = false;
    const saves: FakeRequest[] = [];
    fakeApi({
      ...signInAs('RAM'),
      [`GET ${INFO}`]: record(filled()),
      [`POST ${SAVE}`]: (r: FakeRequest) => {
        saves.push(r);
        return online
          ? { orderInfoId: ORDER, unifiedOrderId: 'UO-20261124-700123', status: ORDER_STATUS.DRAFT, version: 2 }
          : jsonResponse(503, { error: { code: 'unavailable', message: 'Down for a moment.' } });
      },
      'GET /api/products/tok/all': { currency: 'USD', products: [] },
      'GET /api/bundles/tok/all': { currency: 'USD', bundles: [] },
    });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => {});
    const user = userEvent.setup();
    renderApp(`#/store-info/${ORDER}`);
    const store = await screen.findByRole('group', { name: 'Store' });
    await user.clear(within(store).getByRole('textbox', { name: /Store name/ }));
    await user.type(within(store).getByRole('textbox', { name: /Store name/ }), 'Ana Mart Oak');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));

    await screen.findByRole('form', { name: 'Select hardware' });
    expect(warn).toHaveBeenCalled();
    expect(pendingDraft(ORDER)?.json).toMatchObject({ StoreInfo: { storeName: 'Ana Mart Oak' } });
    expect(await screen.findByText('Saved on this device')).toBeTruthy();

    online = true;
    window.dispatchEvent(new Event('online'));
    await waitFor(() => expect(pendingDraft(ORDER)).toBeNull());
    expect(saves.at(-1)!.body).toMatchObject({ version: 1, json: { StoreInfo: { storeName: 'Ana Mart Oak' } } });
    await waitFor(() => expect(screen.queryByText('Saved on this device')).toBeNull());
  });

  it('a refused save (400) stays on the step and marks the field', async () => {
    fakeApi({
      ...signInAs('RAM'),
      [`GET ${INFO}`]: record(filled()),
      [`POST ${SAVE}`]: jsonResponse(400, {
        error: {
          code: 'validation_failed',
          message: 'Check the order.',
          fields: { 'CustomerInfo.email': 'Enter a valid e-mail address.' },
        },
      }),
    });
    const user = userEvent.setup();
    renderApp(`#/store-info/${ORDER}`);
    await screen.findByRole('form', { name: 'Store information' });
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    expect(await screen.findByText('Enter a valid e-mail address.')).toBeTruthy();
    expect(screen.getByRole('form', { name: 'Store information' })).toBeTruthy();
    expect(pendingDraft(ORDER)).toBeNull();
  });

  /** The payment step's server: the order `doc`, and its saves (answered as saved) in the returned list. */
  function paymentStepServer(doc: OrderDocument): FakeRequest[] {
    const saves: FakeRequest[] = [];
    fakeApi({
      ...signInAs('RAM'),
      [`GET ${INFO}`]: record(doc),
      [`POST ${SAVE}`]: (r: FakeRequest) => {
        saves.push(r);
        return { orderInfoId: ORDER, unifiedOrderId: 'UO-20261124-700123', status: ORDER_STATUS.DRAFT, version: 2 };
      },
    });
    return saves;
  }

  /** The hardware payment method of the one save. */
  async function savedHardwareMethod(saves: FakeRequest[]) {
    await waitFor(() => expect(saves).toHaveLength(1));
    const doc = (saves[0]!.body as { json: OrderDocument }).json;
    return doc.PaymentInstrumentInfo!.find((m) => m.type === PAYMENT_PLAN_KIND.HARDWARE);
  }

  it('payment step: a Canadian bank account is typed into the shared bank fields and saved coded CAD', async () => {
    const saves = paymentStepServer(filled('CA'));
    const user = userEvent.setup();
    renderApp(`#/payment-plan-method/${ORDER}`);
    const method = await screen.findByRole('group', { name: 'Hardware payment method' });
    await user.selectOptions(
      within(method).getByRole('combobox', { name: 'Payment method' }),
      'Canadian bank account (CAD)',
    );
    expect(within(method).queryByRole('textbox', { name: /Routing number/ })).toBeNull();
    await user.type(within(method).getByRole('textbox', { name: /Name on account/ }), 'Ana Diaz');
    await user.type(within(method).getByRole('textbox', { name: /Bank name/ }), 'Royal Bank');
    await user.type(within(method).getByRole('textbox', { name: /Transit number/ }), '12345');
    await user.type(within(method).getByRole('textbox', { name: /Institution number/ }), '003');
    await user.type(within(method).getByRole('textbox', { name: /Account number/ }), '000123456789');
    await user.click(within(method).getByRole('radio', { name: 'Savings' }));
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    const saved = await savedHardwareMethod(saves);
    expect(saved).toMatchObject({
      paymentMethodTypeId: 2,
      paymentMethodCode: 'CAD',
      nameOnAccount: 'Ana Diaz',
      achBankName: 'Royal Bank',
      achRoutingNumber: '12345',
      achInstitutionNumber: '003',
      achAccountNumber: '000123456789',
      achAccountType: 'savings',
    });
  });

  it('payment step: an account kept on file shows as "Bank account ending 6789" and keeps its masked number when other fields change', async () => {
    const doc = filled();
    doc.PaymentInstrumentInfo = (doc.PaymentInstrumentInfo ?? []).map((m) =>
      m.type === PAYMENT_PLAN_KIND.HARDWARE
        ? {
            ...m,
            paymentMethodTypeId: 2,
            paymentMethodCode: 'ACH',
            nameOnAccount: 'Ana Diaz',
            achRoutingNumber: '011000015',
            achAccountNumber: '****6789',
            achAccountType: 'checking',
          }
        : m,
    );
    const saves = paymentStepServer(doc);
    const user = userEvent.setup();
    renderApp(`#/payment-plan-method/${ORDER}`);
    const method = await screen.findByRole('group', { name: 'Hardware payment method' });
    expect(within(method).getByText('On file: Bank account ending 6789')).toBeTruthy();
    const account = within(method).getByRole('textbox', { name: /Account number/ }) as HTMLInputElement;
    expect(account.value).toBe('');
    expect(account.required).toBe(false);
    await user.type(within(method).getByRole('textbox', { name: /Bank name/ }), 'First Bank');
    await user.click(screen.getByRole('button', { name: 'Save and continue' }));
    const saved = await savedHardwareMethod(saves);
    expect(saved).toMatchObject({ achBankName: 'First Bank', achAccountNumber: '****6789', paymentMethodCode: 'ACH' });
  });
});
