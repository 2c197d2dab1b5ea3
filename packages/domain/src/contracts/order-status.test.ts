import { describe, expect, it } from 'vitest';
import {
  orderIdTokenParams,
  orderNoteCreateRequest,
  orderStatusChangeRequest,
  orderStatusReasonsQuery,
} from './order-status';

describe('order status contracts', () => {
  it('accepts a status change with a reason and note, and trims the note', () => {
    const parsed = orderStatusChangeRequest.parse({
      order_id: 700001,
      status: '3',
      status_reason_id: 4,
      note: '  no licence  ',
      version: 2,
    });
    expect(parsed).toEqual({ order_id: 700001, status: '3', status_reason_id: 4, note: 'no licence', version: 2 });
  });

  it('refuses an unknown status, a missing version, extra fields and an empty note', () => {
    const bad = orderStatusChangeRequest.safeParse({ order_id: 1, status: '99', version: 0 });
    expect(bad.success).toBe(false);
    expect(bad.error?.issues[0]?.message).toBe('Choose an order status code of spec §4.');
    expect(orderStatusChangeRequest.safeParse({ order_id: 1, status: '2' }).success).toBe(false);
    expect(orderStatusChangeRequest.safeParse({ order_id: 1, status: '2', version: 0, extra: 1 }).success).toBe(false);
    expect(orderStatusChangeRequest.safeParse({ order_id: 1, status: '2', version: 0, note: '   ' }).success).toBe(
      false,
    );
    expect(orderStatusChangeRequest.safeParse({ order_id: 0, status: '2', version: 0 }).success).toBe(false);
  });

  it('validates notes and params', () => {
    expect(orderNoteCreateRequest.parse({ note: ' call back ' })).toEqual({ note: 'call back' });
    expect(orderNoteCreateRequest.safeParse({ note: 'x'.repeat(4001) }).success).toBe(false);
    expect(orderNoteCreateRequest.safeParse({}).success).toBe(false);
    expect(orderIdTokenParams.parse({ orderId: '700001', token: 't' })).toEqual({ orderId: 700001, token: 't' });
    expect(orderIdTokenParams.safeParse({ orderId: 'abc', token: 't' }).success).toBe(false);
  });

  it('validates the reasons query', () => {
    expect(orderStatusReasonsQuery.parse({})).toEqual({});
    expect(orderStatusReasonsQuery.parse({ status: '141' })).toEqual({ status: '141' });
    expect(orderStatusReasonsQuery.safeParse({ status: '7' }).success).toBe(false);
  });
});
