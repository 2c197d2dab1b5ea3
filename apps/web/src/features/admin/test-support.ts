import type { JobSummary, MailMessageInfo, MailSummary } from '@pos/domain';
import { setSession } from '../../lib/session';
import { makeSession } from '../../test/factories';

/** GET /api/auth/validate/{token} for a staff session with `role`. */
export function staffValidation(role: string) {
  return {
    maketoken: false,
    kind: 'staff',
    email: 'ada@example.com',
    name: 'Ada Admin',
    role,
    agent_id: null,
    account_manager_username: null,
    privileges: [],
    expires_at: '2030-01-01T00:00:00.000Z',
  };
}

/** Signs in an Admin with token 'tok'; returns the fake route that validates it. */
export function signInAdmin() {
  setSession(makeSession({ token: 'tok', role: 'Admin', name: 'Ada Admin', email: 'ada@example.com' }));
  return { 'GET /api/auth/validate/tok': staffValidation('Admin') };
}

let nextId = 1;

export function makeMail(overrides: Partial<MailSummary> = {}): MailSummary {
  const id = overrides.id ?? nextId++;
  return {
    id,
    to: `merchant${id}@store.example`,
    subject: `Update the payment method for Store ${id}`,
    template: 'payment_update_link',
    status: 'stored',
    links: [`http://localhost:3000/#/customer/payment/tok${id}`],
    created_at: '2026-03-04T09:05:12.000Z',
    sent_at: null,
    ...overrides,
  };
}

export function makeMailMessage(overrides: Partial<MailMessageInfo> = {}): MailMessageInfo {
  const summary = makeMail(overrides);
  return {
    html: `<p>Hello</p><a href="${summary.links[0] ?? ''}">Update</a>`,
    text: 'Hello',
    error: null,
    ...summary,
    ...overrides,
  };
}

export function makeJob(overrides: Partial<JobSummary> = {}): JobSummary {
  return {
    id: '00000000-0000-4000-8000-000000000001',
    queue: 'notify-update-payment',
    state: 'completed',
    retry_count: 0,
    retry_limit: 3,
    created_on: '2026-03-04T09:05:12.000Z',
    started_on: '2026-03-04T09:05:13.000Z',
    completed_on: '2026-03-04T09:05:14.000Z',
    data: {},
    output: null,
    dead_lettered: false,
    ...overrides,
  };
}
