import { describe, expect, it } from 'vitest';
import type { AnyServiceCtx } from '../../context';
import type { Db } from '../../db/client';
import {
  applyDocumentSaveEffects,
  applyStatusEffects,
  onOrderDocumentSave,
  onOrderStatusChange,
  type StatusChange,
} from './order-hooks';

// This file's own module registry (vitest isolates each test file), so the listeners below reach no other test.
const ctx = {} as AnyServiceCtx;
const tx = {} as Db;
const change = { to: '11' } as StatusChange;

describe('order hooks', () => {
  it('runs every listener of a status change in the order registered; a name registered again is replaced', async () => {
    const calls: string[] = [];
    onOrderStatusChange('contracts', async (_ctx, _tx, c) => void calls.push(`first contracts ${c.to}`));
    onOrderStatusChange('onboarding', async (_ctx, _tx, c) => void calls.push(`onboarding ${c.to}`));
    onOrderStatusChange('contracts', async (_ctx, _tx, c) => void calls.push(`contracts ${c.to}`));
    await applyStatusEffects(ctx, tx, change);
    expect(calls).toEqual(['contracts 11', 'onboarding 11']);
  });

  it('passes the context and the transaction of the change on; a failing listener fails the change', async () => {
    let seen: unknown[] = [];
    onOrderDocumentSave('contracts', async (c, t) => {
      seen = [c, t];
    });
    await applyDocumentSaveEffects(ctx, tx, { before: {}, after: {} } as never);
    expect(seen[0]).toBe(ctx);
    expect(seen[1]).toBe(tx);
    onOrderDocumentSave('contracts', async () => {
      throw new Error('no contract');
    });
    await expect(applyDocumentSaveEffects(ctx, tx, { before: {}, after: {} } as never)).rejects.toThrow('no contract');
  });
});
