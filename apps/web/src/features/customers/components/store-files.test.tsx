import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { StoreFile } from '@pos/domain';
import { describe, expect, it } from 'vitest';
import { fakeApi } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { customerRoutes, makeCustomer, signInAs } from '../lib/test-support';

const LIST = '/api/stores/500002/files/tok';

function storeFile(overrides: Partial<StoreFile>): StoreFile {
  return {
    id: 1,
    store_id: 500002,
    order_id: null,
    kind: 'store_picture',
    file_name: 'front.png',
    content_type: 'image/png',
    size: 2048,
    upload_id: 'A'.repeat(32),
    previewable: true,
    uploaded_by_name: 'Casey Support',
    uploaded_by_email: 'casey@example.com',
    uploaded_at: '2026-03-04T15:30:00.000Z',
    ...overrides,
  };
}

const pngBytes = () => new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]);

describe("the store panel's files (decision 160)", () => {
  it('lists the files with a preview, who and when; uploads a business license and deletes a file after asking', async () => {
    let files: StoreFile[] = [
      storeFile({}),
      storeFile({
        id: 2,
        kind: 'business_license',
        file_name: 'license.pdf',
        content_type: 'application/pdf',
        previewable: false,
      }),
    ];
    const { calls, fetchMock } = fakeApi({
      ...signInAs('Customer Support'),
      ...customerRoutes(makeCustomer()),
      [`GET ${LIST}`]: () => ({ items: files }),
      [`POST ${LIST}`]: () => {
        const added = storeFile({
          id: 3,
          kind: 'business_license',
          file_name: 'permit.png',
          uploaded_at: '2026-03-05T09:00:00.000Z',
        });
        files = [added, ...files];
        return added;
      },
      'DELETE /api/stores/500002/files/1/tok': () => {
        files = files.filter((f) => f.id !== 1);
        return { deleted: true };
      },
    });
    const user = userEvent.setup();
    renderApp('#/customer?id=100001&tab=notes');
    const panel = await screen.findByRole('region', { name: 'Store files' });
    const preview = await within(panel).findByRole('img', { name: 'front.png' });
    expect(preview.getAttribute('src')).toBe('/api/stores/500002/files/1/tok?size=thumb');
    expect(within(panel).getByText('license.pdf')).toBeTruthy();
    expect(within(panel).getByRole('cell', { name: 'Business license' })).toBeTruthy();
    expect(within(panel).getAllByText('casey@example.com')).toHaveLength(2);
    expect(within(panel).getByRole('link', { name: 'Download license.pdf' }).getAttribute('href')).toBe(
      '/api/stores/500002/files/2/tok',
    );

    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Kind of file' }), 'business_license');
    await user.upload(
      within(panel).getByLabelText('File'),
      new File([pngBytes()], 'permit.png', { type: 'image/png' }),
    );
    await within(panel).findByText(/permit\.png \(11 bytes\)/);
    await user.click(within(panel).getByRole('button', { name: 'Upload' }));
    expect(await screen.findByText('Business license permit.png was added to store 500002.')).toBeTruthy();
    const post = fetchMock.mock.calls.find(([, init]) => init?.method === 'POST');
    const form = post![1]!.body as FormData;
    expect(form.get('kind')).toBe('business_license');
    expect((form.get('file') as File).name).toBe('permit.png');
    expect(await within(panel).findByText('permit.png')).toBeTruthy();

    await user.click(within(panel).getByRole('button', { name: 'Delete front.png' }));
    const dialog = await screen.findByRole('dialog', { name: 'Delete this file?' });
    await user.click(within(dialog).getByRole('button', { name: 'Delete' }));
    await waitFor(() => expect(calls.some((c) => c.method === 'DELETE')).toBe(true));
    await waitFor(() => expect(within(panel).queryByText('front.png')).toBeNull());
  });

  it('refuses a reseller file that is not a PNG before sending it', async () => {
    const { calls } = fakeApi({
      ...signInAs('Customer Support'),
      ...customerRoutes(makeCustomer()),
      [`GET ${LIST}`]: () => ({ items: [] }),
    });
    const user = userEvent.setup({ applyAccept: false });
    renderApp('#/customer?id=100001&tab=notes');
    const panel = await screen.findByRole('region', { name: 'Store files' });
    expect(await within(panel).findByText(/No store pictures, business licenses or reseller files yet/)).toBeTruthy();
    await user.selectOptions(within(panel).getByRole('combobox', { name: 'Kind of file' }), 'reseller_file');
    await user.upload(within(panel).getByLabelText('File'), new File(['jpeg'], 'reseller.jpg', { type: 'image/jpeg' }));
    await within(panel).findByText(/reseller\.jpg/);
    await user.click(within(panel).getByRole('button', { name: 'Upload' }));
    expect(await within(panel).findByText('Reseller files must be PNG files only.')).toBeTruthy();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('a read-only session sees the files but no upload form and no Delete', async () => {
    fakeApi({
      ...signInAs('Operations'),
      ...customerRoutes(makeCustomer()),
      [`GET ${LIST}`]: () => ({ items: [storeFile({})] }),
    });
    renderApp('#/customer?id=100001&tab=notes');
    const panel = await screen.findByRole('region', { name: 'Store files' });
    expect(await within(panel).findByText('front.png')).toBeTruthy();
    expect(within(panel).queryByRole('button', { name: 'Upload' })).toBeNull();
    expect(within(panel).queryByRole('button', { name: /Delete/ })).toBeNull();
  });
});
