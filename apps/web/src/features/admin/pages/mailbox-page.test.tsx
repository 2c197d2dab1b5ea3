import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { errorResponse, fakeApi, type FakeRequest } from '../../../test/fake-api';
import { renderApp } from '../../../test/render-app';
import { makeMail, makeMailMessage, signInAdmin } from '../test-support';

const LIST = '/api/admin/mail/tok';

async function messagesTable() {
  return screen.findByRole('table', { name: /Messages, newest first/ });
}

describe('Mailbox page (#/admin/mailbox)', () => {
  it('lists recent messages from the API: To, Subject, Template, Status, Created', async () => {
    const mails = [
      makeMail({
        id: 7,
        to: 'billing@corner.example',
        subject: 'Update the payment method for Corner Deli',
        status: 'stored',
      }),
      makeMail({ id: 6, template: 'contract_signing_link', status: 'failed' }),
    ];
    const { calls } = fakeApi({ ...signInAdmin(), [`GET ${LIST}`]: { items: mails, total: 2, total_capped: false } });
    renderApp('#/admin/mailbox');

    expect(await screen.findByRole('heading', { name: 'Mailbox', level: 1 })).toBeTruthy();
    const table = await messagesTable();
    const rows = within(table).getAllByRole('row');
    expect(
      within(rows[0]!)
        .getAllByRole('columnheader')
        .map((h) => h.textContent),
    ).toEqual(['To', 'Subject', 'Template', 'Status', 'Created']);
    expect(
      within(rows[1]!)
        .getAllByRole('cell')
        .map((c) => c.textContent),
    ).toEqual([
      'billing@corner.example',
      'Update the payment method for Corner Deli',
      'payment_update_link',
      'stored',
      'Mar 4, 2026, ' + new Date('2026-03-04T09:05:12.000Z').toLocaleTimeString('en-US'),
    ]);
    expect(within(rows[2]!).getByText('contract_signing_link')).toBeTruthy();
    const first = calls.find((c) => c.path === LIST);
    expect(Object.fromEntries(first!.query)).toEqual({ limit: '25', offset: '0' });
    expect(screen.getByText('Showing 1–2 of 2')).toBeTruthy();
  });

  it('the recipient and template filters change the query (and start again at page 1)', async () => {
    const { calls } = fakeApi({
      ...signInAdmin(),
      [`GET ${LIST}`]: (r: FakeRequest) => ({
        items: [makeMail({ to: `x${r.query.get('offset') ?? ''}@shop.example` })],
        total: 60,
        total_capped: false,
      }),
    });
    const user = userEvent.setup();
    renderApp('#/admin/mailbox');
    await messagesTable();

    await user.click(screen.getByRole('button', { name: 'Page 2' }));
    await waitFor(() => expect(calls.at(-1)?.query.get('offset')).toBe('25'));

    await user.type(screen.getByRole('searchbox', { name: 'Recipient' }), 'corner');
    await waitFor(() => expect(calls.at(-1)?.query.get('to')).toBe('corner'));
    expect(calls.at(-1)?.query.get('offset')).toBe('0');
    // Typing is debounced: one call for the whole word, not one per letter.
    expect(calls.filter((c) => c.path === LIST && c.query.get('to') !== null)).toHaveLength(1);

    await user.selectOptions(screen.getByRole('combobox', { name: 'Template' }), 'Payment-method update link');
    await waitFor(() => expect(calls.at(-1)?.query.get('template')).toBe('payment_update_link'));
    expect(Object.fromEntries(calls.at(-1)!.query)).toEqual({
      to: 'corner',
      template: 'payment_update_link',
      limit: '25',
      offset: '0',
    });

    await user.selectOptions(screen.getByRole('combobox', { name: 'Template' }), 'Any template');
    await waitFor(() => expect(calls.at(-1)?.query.has('template')).toBe(false));
  });

  it('Refresh asks the server again', async () => {
    const { calls } = fakeApi({
      ...signInAdmin(),
      [`GET ${LIST}`]: { items: [makeMail()], total: 1, total_capped: false },
    });
    renderApp('#/admin/mailbox');
    await messagesTable();
    const before = calls.filter((c) => c.path === LIST).length;
    await userEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await waitFor(() => expect(calls.filter((c) => c.path === LIST).length).toBe(before + 1));
  });

  it('opening a message shows its subject, recipient, status, links as anchors and its HTML in a sandboxed iframe', async () => {
    const link = 'http://localhost:3000/#/customer/payment/abcDEF123';
    const message = makeMailMessage({
      id: 42,
      to: 'billing@corner.example',
      subject: 'Update the payment method for Corner Deli',
      links: [link, 'javascript:alert(1)'],
      html: '<p>Hi</p><script>parent.x=1</script>',
    });
    const { calls } = fakeApi({
      ...signInAdmin(),
      [`GET ${LIST}`]: {
        items: [makeMail({ id: 42, to: message.to, subject: message.subject })],
        total: 1,
        total_capped: false,
      },
      'GET /api/admin/mail/42/tok': message,
    });
    renderApp('#/admin/mailbox');
    await userEvent.click(
      within(await messagesTable()).getByRole('button', { name: 'Update the payment method for Corner Deli' }),
    );

    const detail = await screen.findByRole('region', { name: 'Update the payment method for Corner Deli' });
    expect(within(detail).getByRole('heading', { name: 'Update the payment method for Corner Deli' })).toBeTruthy();
    expect(within(detail).getByText('billing@corner.example')).toBeTruthy();
    expect(within(detail).getByText('stored')).toBeTruthy();
    const anchor = within(detail).getByRole('link', { name: link });
    expect(anchor.getAttribute('href')).toBe(link);
    expect(anchor.getAttribute('rel')).toContain('noopener');
    // Only web addresses become anchors.
    expect(within(detail).queryByRole('link', { name: 'javascript:alert(1)' })).toBeNull();
    expect(within(detail).getByText('javascript:alert(1)')).toBeTruthy();

    const frame = within(detail).getByTitle('Message body');
    expect(frame.tagName).toBe('IFRAME');
    expect(frame.getAttribute('sandbox')).toBe('');
    expect(frame.getAttribute('srcdoc')).toBe('<p>Hi</p><script>parent.x=1</script>');
    expect(calls.some((c) => c.path === '/api/admin/mail/42/tok')).toBe(true);
  });

  it('a failed call shows the global error toast', async () => {
    fakeApi({ ...signInAdmin(), [`GET ${LIST}`]: errorResponse(400, 'validation_failed', 'The mailbox is on fire.') });
    renderApp('#/admin/mailbox', undefined, { appQueryClient: true });
    expect(await screen.findByText(/The mailbox is on fire\./)).toBeTruthy();
  });

  it('Export CSV fetches every matching row page by page and downloads them', async () => {
    const all = Array.from({ length: 620 }, (_, i) => makeMail({ id: 1000 - i, to: `m${i}@corner.example` }));
    const { calls } = fakeApi({
      ...signInAdmin(),
      [`GET ${LIST}`]: (r: FakeRequest) => {
        const offset = Number(r.query.get('offset'));
        const limit = Number(r.query.get('limit'));
        return { items: all.slice(offset, offset + limit), total: all.length, total_capped: false };
      },
    });
    let blob: Blob | undefined;
    vi.spyOn(URL, 'createObjectURL').mockImplementation((b) => {
      blob = b as Blob;
      return 'blob:mailbox';
    });
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderApp('#/admin/mailbox');
    await messagesTable();
    await user.type(screen.getByRole('searchbox', { name: 'Recipient' }), 'corner');
    await waitFor(() => expect(calls.at(-1)?.query.get('to')).toBe('corner'));

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText(/Exported 620 messages to mailbox-\d{4}-\d{2}-\d{2}\.csv\./)).toBeTruthy();
    const exportCalls = calls.filter((c) => c.path === LIST && c.query.get('limit') === '500');
    expect(exportCalls.map((c) => [c.query.get('offset'), c.query.get('to')])).toEqual([
      ['0', 'corner'],
      ['500', 'corner'],
    ]);
    expect(click).toHaveBeenCalledTimes(1);
    const lines = (await blob!.text()).replace(/^\uFEFF/, '').split('\r\n');
    expect(lines[0]).toBe('Id,To,Subject,Template,Status,Created,Sent,Links');
    expect(lines).toHaveLength(1 + 620 + 1);
    expect(lines[1]).toBe(
      `1000,m0@corner.example,Update the payment method for Store 1000,payment_update_link,stored,2026-03-04T09:05:12.000Z,,${all[0]!.links[0]}`,
    );
  });

  it('a capped total reads "1,000+", pages on while pages are full, and the export reads past the cap', async () => {
    // The server counts up to 1,000 (decision 109); 1,060 messages match.
    const all = Array.from({ length: 1060 }, (_, i) => makeMail({ id: 2000 - i, to: `m${i}@corner.example` }));
    const { calls } = fakeApi({
      ...signInAdmin(),
      [`GET ${LIST}`]: (r: FakeRequest) => {
        const offset = Number(r.query.get('offset'));
        const limit = Number(r.query.get('limit'));
        return { items: all.slice(offset, offset + limit), total: 1000, total_capped: true };
      },
    });
    vi.spyOn(URL, 'createObjectURL').mockImplementation(() => 'blob:mailbox');
    vi.spyOn(URL, 'revokeObjectURL').mockImplementation(() => undefined);
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    const user = userEvent.setup();
    renderApp('#/admin/mailbox');
    await messagesTable();
    expect(await screen.findByText('Showing 1–25 of 1,000+')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Last page' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Next page' }));
    expect(await screen.findByText('Showing 26–50 of 1,000+')).toBeTruthy();

    await user.click(screen.getByRole('button', { name: 'Export CSV' }));
    expect(await screen.findByText(/Exported 1060 messages to mailbox-/)).toBeTruthy();
    expect(calls.filter((c) => c.query.get('limit') === '500').map((c) => c.query.get('offset'))).toEqual([
      '0',
      '500',
      '1000',
    ]);
  });
});
