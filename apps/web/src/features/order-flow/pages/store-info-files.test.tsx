import { blankOrder, ORDER_STATUS, type OrderDocument } from '@pos/domain';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { signInAs } from '../../../test/factories';
import { fakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';

/*
 * The store-information step's store files (decision 160): an order for an existing store uploads to that store; a new
 * merchant's order keeps them until Complete gives them the new store.
 */

const ORDER = 700456;

function record(doc: OrderDocument) {
  return {
    order: {
      orderInfoId: ORDER,
      unifiedOrderId: 'UO-20261124-700456',
      status: ORDER_STATUS.DRAFT,
      flow: 'AR',
      order_type: 'P',
      sales_rep: null,
      agent_id: null,
      customer_id: null,
      version: 1,
      updated_at: '2026-11-24T10:00:00.000Z',
      json: doc,
    },
  };
}

afterEach(() => {
  localStorage.clear();
  sessionStorage.clear();
  vi.unstubAllGlobals();
});

describe('store information step: store files', () => {
  it('an order for an existing store: a rep uploads a store picture to that store and sees it listed, without Delete', async () => {
    const doc = blankOrder();
    doc.StoreInfo = { ...doc.StoreInfo, customerStoreId: 500777 } as OrderDocument['StoreInfo'];
    let items: unknown[] = [];
    const { fetchMock } = fakeApi({
      ...signInAs('RAM'),
      [`GET /api/customers/orderinfo/tok`]: record(doc),
      'GET /api/stores/500777/files/tok': () => ({ items }),
      'POST /api/stores/500777/files/tok': () => {
        const saved = {
          id: 9,
          store_id: 500777,
          order_id: null,
          kind: 'store_picture',
          file_name: 'front.jpg',
          content_type: 'image/jpeg',
          size: 4,
          upload_id: 'B'.repeat(32),
          previewable: true,
          uploaded_by_name: 'Dana Whitfield',
          uploaded_by_email: 'support@example.com',
          uploaded_at: '2026-11-24T10:05:00.000Z',
        };
        items = [saved];
        return saved;
      },
    });
    const user = userEvent.setup();
    renderApp(`#/store-info/${ORDER}`);
    const panel = await screen.findByRole('region', { name: 'Store files' });
    await user.upload(
      await within(panel).findByLabelText('File'),
      new File([new Uint8Array([0xff, 0xd8, 0xff, 0xe0])], 'front.jpg', { type: 'image/jpeg' }),
    );
    await within(panel).findByText(/front\.jpg \(4 bytes\)/);
    await user.click(within(panel).getByRole('button', { name: 'Upload' }));
    expect(await within(panel).findByRole('img', { name: 'front.jpg' })).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect((post![1]!.body as FormData).get('kind')).toBe('store_picture');
    // The upload did not submit the step's form (no order save).
    await waitFor(() =>
      expect(fetchMock.mock.calls.some(([url]) => String(url).includes('/orderinfo/700456'))).toBe(false),
    );
    expect(within(panel).queryByRole('button', { name: /Delete/ })).toBeNull();
  });

  it('a new merchant (no store yet): the rep uploads a business license to the order, sees where it goes, and may remove it', async () => {
    let items: unknown[] = [];
    const saved = {
      id: 11,
      store_id: null,
      order_id: ORDER,
      kind: 'business_license',
      file_name: 'license.pdf',
      content_type: 'application/pdf',
      size: 5,
      upload_id: 'C'.repeat(32),
      previewable: false,
      uploaded_by_name: 'Dana Whitfield',
      uploaded_by_email: 'ram@example.com',
      uploaded_at: '2026-11-24T10:05:00.000Z',
    };
    const { fetchMock } = fakeApi({
      ...signInAs('RAM'),
      [`GET /api/customers/orderinfo/tok`]: record(blankOrder()),
      [`GET /api/orders/${ORDER}/files/tok`]: () => ({ items }),
      [`POST /api/orders/${ORDER}/files/tok`]: () => {
        items = [saved];
        return saved;
      },
      [`DELETE /api/orders/${ORDER}/files/11/tok`]: () => {
        items = [];
        return { deleted: true };
      },
    });
    const user = userEvent.setup();
    renderApp(`#/store-info/${ORDER}`);
    const panel = await screen.findByRole('region', { name: 'Store files' });
    expect(within(panel).getByText(/move to the new store when the order is complete/)).toBeTruthy();
    await within(panel).findByText(/No store pictures, business licenses or reseller files yet/);
    await user.selectOptions(within(panel).getByLabelText('Kind of file'), 'business_license');
    await user.upload(
      within(panel).getByLabelText('File'),
      new File([new TextEncoder().encode('%PDF-')], 'license.pdf', { type: 'application/pdf' }),
    );
    await within(panel).findByText(/license\.pdf \(5 bytes\)/);
    await user.click(within(panel).getByRole('button', { name: 'Upload' }));
    expect(await within(panel).findByRole('link', { name: 'Download license.pdf' })).toHaveProperty(
      'href',
      expect.stringContaining(`/api/orders/${ORDER}/files/11/tok`),
    );
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    expect(String(post![0])).toContain(`/api/orders/${ORDER}/files/tok`);
    expect((post![1]!.body as FormData).get('kind')).toBe('business_license');
    // The order's editors may remove a file they added before Complete.
    await user.click(within(panel).getByRole('button', { name: 'Delete license.pdf' }));
    await user.click(await screen.findByRole('button', { name: 'Delete' }));
    await within(panel).findByText(/No store pictures, business licenses or reseller files yet/);
    expect(fetchMock.mock.calls.some(([, init]) => init?.method === 'DELETE')).toBe(true);
  });
});
