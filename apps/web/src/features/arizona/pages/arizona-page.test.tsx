import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CustomerSearchRecord, TaxCertificate } from '@pos/domain';
import { describe, expect, it } from 'vitest';
import { fakeApi, type FakeRequest } from '../../../test/fake-api';
import { signInAs } from '../../../test/factories';
import { renderApp } from '../../../test/render-app';

const CERTS = '/api/taxcertificates/tok';

const storeRow = (over: Partial<CustomerSearchRecord>): CustomerSearchRecord => ({
  customer_id: 10,
  legal_name: 'Desert Market LLC',
  doing_business_as: 'Desert Market',
  store_id: 77,
  store_name: 'Desert Market #1',
  bracct: null,
  sales_rep: null,
  federal_tax_id: '86-1234567',
  email: 'owner@desert.example',
  phone: null,
  country: 'US',
  currency: 'USD',
  city: 'Phoenix',
  state: 'AZ',
  zip: '85004',
  customer_status: 'active',
  store_status: 'active',
  account_manager: null,
  ...over,
});

/** The public id the upload call answers (decision 140: random, never the table's key). */
const UPLOADED_ID = 'bGljZW5zZS1wZGYtdXBsb2FkZWQtMDA0';

const cert = (over: Partial<TaxCertificate>): TaxCertificate => ({
  id: 1,
  customer_id: 10,
  customer_name: 'Desert Market LLC',
  store_id: 77,
  store_name: 'Desert Market',
  state: 'AZ',
  kind: 'TPT',
  certificate_number: 'TPT-1',
  expires_on: '2026-12-10',
  upload_id: 'dHB0LWNlcnRpZmljYXRlLWZpbGUtMDAw',
  file_name: 'tpt.pdf',
  status: 'expiring',
  created_at: '2026-01-01T00:00:00.000Z',
  created_by: 'care@example.com',
  revoked_at: null,
  ...over,
});

describe('#/arizona', () => {
  it('lists expiring certificates, finds an Arizona store (not a Texan one) and records a certificate with its file', async () => {
    const recorded: TaxCertificate[] = [];
    const { calls } = fakeApi({
      ...signInAs('Customer Care'),
      ['GET /api/customers/tok/all']: {
        items: [storeRow({}), storeRow({ store_id: 78, doing_business_as: 'Lone Star Mart', state: 'TX' })],
        total: 2,
        total_capped: false,
      },
      [`GET ${CERTS}`]: (r: FakeRequest) =>
        r.query.get('expiring') === '30'
          ? { today: '2026-11-22', items: [cert({ id: 9, store_name: 'Cactus Corner', certificate_number: 'TPT-9' })] }
          : { today: '2026-11-22', items: recorded },
      ['POST /api/taxcertificates/upload/tok']: {
        upload_id: UPLOADED_ID,
        sha256: 'a'.repeat(64),
        size: 10,
        content_type: 'application/pdf',
        original_name: 'license.pdf',
      },
      [`POST ${CERTS}`]: (r: FakeRequest) => {
        const b = r.body as { certificate_number: string; expires_on: string };
        const c = cert({ id: 2, certificate_number: b.certificate_number, expires_on: b.expires_on, status: 'valid' });
        recorded.push(c);
        return c;
      },
    });
    const user = userEvent.setup();
    renderApp('#/arizona');
    const expiring = await screen.findByRole('table', { name: 'Certificates expiring within 30 days' });
    expect(await within(expiring).findByText('TPT-9')).toBeTruthy();

    await user.type(screen.getByRole('textbox', { name: /^Store/ }), 'market');
    expect(await screen.findByRole('radio', { name: /Desert Market \(store 77, Phoenix AZ\)/ })).toBeTruthy();
    expect(screen.queryByRole('radio', { name: /Lone Star Mart/ })).toBeNull();
    await user.click(screen.getByRole('radio', { name: /Desert Market/ }));
    expect(screen.getByRole('link', { name: 'New order for this store' }).getAttribute('href')).toBe(
      '#/neworder/86-1234567/77',
    );

    await user.type(screen.getByRole('textbox', { name: /^Certificate number/ }), 'TPT-4455');
    await user.type(screen.getByLabelText(/^Expires on/), '2027-11-30');
    await user.upload(
      screen.getByLabelText(/^Certificate file/),
      new File(['%PDF-1.7'], 'license.pdf', { type: 'application/pdf' }),
    );
    await user.click(screen.getByRole('button', { name: 'Record certificate' }));
    expect(await screen.findByText('Certificate recorded')).toBeTruthy();
    expect(calls.find((c) => c.method === 'POST' && c.path === CERTS)?.body).toEqual({
      store_id: 77,
      kind: 'TPT',
      certificate_number: 'TPT-4455',
      expires_on: '2027-11-30',
      upload_id: UPLOADED_ID,
    });
    const mine = await screen.findByRole('table', { name: 'Certificates of Desert Market' });
    expect(await within(mine).findByText('TPT-4455')).toBeTruthy();
    expect(within(mine).getByRole('link', { name: 'tpt.pdf' }).getAttribute('href')).toBe(
      '/api/uploads/dHB0LWNlcnRpZmljYXRlLWZpbGUtMDAw/tok',
    );
  });

  it('a reader who may not edit customers (Operations) looks certificates up but is offered no Record and no Revoke', async () => {
    const { calls } = fakeApi({
      ...signInAs('Operations'),
      [`GET ${CERTS}`]: { today: '2026-11-22', items: [cert({ id: 9, certificate_number: 'TPT-9' })] },
    });
    renderApp('#/arizona');
    const expiring = await screen.findByRole('table', { name: 'Certificates expiring within 30 days' });
    expect(await within(expiring).findByText('TPT-9')).toBeTruthy();
    expect(await screen.findByText(/Recording or revoking one needs the customer edit privilege/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Record certificate' })).toBeNull();
    expect(within(expiring).queryByRole('button', { name: /Revoke/ })).toBeNull();
    expect(calls.some((c) => c.method === 'POST')).toBe(false);
  });

  it('says what is missing before sending anything', async () => {
    const { calls } = fakeApi({
      ...signInAs('Customer Care'),
      [`GET ${CERTS}`]: { today: '2026-11-22', items: [] },
    });
    const user = userEvent.setup();
    renderApp('#/arizona');
    await screen.findByText('No certificate expires within 30 days.');
    await user.click(screen.getByRole('button', { name: 'Record certificate' }));
    expect(await screen.findByText('Search for the Arizona store and choose it.')).toBeTruthy();
    expect(screen.getByText('Choose the certificate file (PDF, JPG or PNG).')).toBeTruthy();
    expect(calls.filter((c) => c.method === 'POST')).toEqual([]);
  });
});
