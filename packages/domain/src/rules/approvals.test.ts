import { describe, expect, it } from 'vitest';
import { approvalDecisionsRequest } from '../contracts/approvals';
import { memoCreateRequest } from '../contracts/memos';
import { needsSecondApprover, selfApprovalRefusal } from './approvals';

describe('who may approve (decision 120)', () => {
  it('needs a second person only above $1,000.00, whichever way an adjustment goes', () => {
    expect(needsSecondApprover(1000_00)).toBe(false);
    expect(needsSecondApprover(1000_01)).toBe(true);
    expect(needsSecondApprover(-1000_01)).toBe(true);
    expect(needsSecondApprover(-999_99)).toBe(false);
  });

  it('refuses the requester above the threshold (e-mails compared without case), nobody else', () => {
    const big = { amountCents: 1500_00, requesterEmail: 'ar@example.com' };
    expect(selfApprovalRefusal({ ...big, deciderEmail: ' AR@example.com' })).toMatch(/second person/);
    expect(selfApprovalRefusal({ ...big, deciderEmail: 'ar2@example.com' })).toBeNull();
    expect(selfApprovalRefusal({ ...big, amountCents: 1000_00, deciderEmail: 'ar@example.com' })).toBeNull();
  });
});

describe('memo and decision contracts', () => {
  const base = { customer_id: 1, invoice_id: 2, reason: 'Outage', note: 'Four days' };
  const fields = (input: unknown) => {
    const r = memoCreateRequest.safeParse(input);
    return r.success ? [] : r.error.issues.map((i) => i.path.join('.'));
  };

  it('credits and refunds are positive, an adjustment is signed but not zero', () => {
    expect(fields({ ...base, type: 'C', amount_cents: 1 })).toEqual([]);
    expect(fields({ ...base, type: 'C', amount_cents: -1 })).toEqual(['amount_cents']);
    expect(fields({ ...base, type: 'A', amount_cents: -500 })).toEqual([]);
    expect(fields({ ...base, type: 'A', amount_cents: 0 })).toEqual(['amount_cents']);
  });

  it('a refund says how the money goes back; by the gateway only against an invoice; reason and note required', () => {
    expect(fields({ ...base, type: 'R', amount_cents: 100 })).toEqual(['refund_method']);
    expect(fields({ ...base, type: 'R', amount_cents: 100, refund_method: 'check' })).toEqual([]);
    expect(fields({ ...base, invoice_id: null, type: 'R', amount_cents: 100, refund_method: 'gateway' })).toEqual([
      'refund_method',
    ]);
    expect(fields({ ...base, type: 'C', amount_cents: 100, refund_method: 'check' })).toEqual(['refund_method']);
    expect(fields({ customer_id: 1, type: 'C', amount_cents: 100, reason: ' ', note: '' })).toEqual(['reason', 'note']);
  });

  it('a bulk decision holds 1 to 100 items', () => {
    const item = { kind: 'memo', id: 1, version: 1 };
    const ok = (n: number) =>
      approvalDecisionsRequest.safeParse({ items: Array(n).fill(item), decision: 'approve', reason: 'Fine by me' })
        .success;
    expect([ok(0), ok(1), ok(100), ok(101)]).toEqual([false, true, true, false]);
  });
});
