import { describe, expect, it } from 'vitest';
import {
  ADD_TERMINAL_ORDER_SUMMARY,
  SUMMARY_LABEL_TEXT,
  DEFAULT_ORDER_TYPE,
  NOTE_TYPES,
  ORDER_DEFAULTS,
  ORDER_FLOWS,
  ORDER_TYPE,
  ORDER_TYPE_LABELS,
  PAYMENT_PLAN_KINDS,
  isOrderFlow,
  isOrderType,
  pendingOrdersQueryType,
} from './order';

describe('order codes', () => {
  it('defaults to POS orders (P); non-POS is N', () => {
    expect(DEFAULT_ORDER_TYPE).toBe('P');
    expect(ORDER_TYPE.NON_POS).toBe('N');
    expect(ORDER_TYPE_LABELS.P).toBe('POS');
    expect(isOrderType('N')).toBe(true);
    expect(isOrderType('X')).toBe(false);
  });

  it('has the AR and RAM flows, queried as ar/ram', () => {
    expect(ORDER_FLOWS).toEqual(['AR', 'RAM']);
    expect(isOrderFlow('RAM')).toBe(true);
    expect(isOrderFlow('ram')).toBe(false);
    expect(pendingOrdersQueryType('AR')).toBe('ar');
    expect(pendingOrdersQueryType('RAM')).toBe('ram');
  });

  it('has the note types and payment plan kinds of §3', () => {
    expect(NOTE_TYPES).toEqual(['order_note', 'status_reason']);
    expect(PAYMENT_PLAN_KINDS).toEqual(['hardware sale plan', 'monthly plan']);
  });

  it('carries the blank template defaults of §3', () => {
    expect(ORDER_DEFAULTS).toEqual({
      mobileConsent: 'N',
      noOfTerminals: 1,
      orderType: 'P',
      customerCategory: 'DISTRIBUTOR',
      customerClass: 'POS',
      inventoryDatabaseExists: 'No',
      acceptsCreditCards: 'No',
      dbaAddressSameAsLegal: true,
      dbaSameAsLegal: false,
    });
    expect(ADD_TERMINAL_ORDER_SUMMARY).toBe('AddTerminalOrderSummary');
    expect(SUMMARY_LABEL_TEXT[ADD_TERMINAL_ORDER_SUMMARY]).toBe('Add-terminal order summary');
  });
});
