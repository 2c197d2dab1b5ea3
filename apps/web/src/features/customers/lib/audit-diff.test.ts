import { describe, expect, it } from 'vitest';
import { describeAuditEntry, diffAudit, fieldLabel } from './audit-diff';

describe('diffAudit: what an audit entry changed', () => {
  it('lists only the fields that differ, nested addresses as dotted paths', () => {
    const before = {
      customer_id: 100001,
      version: 3,
      store_name: 'Corner Deli',
      store_address: { city: 'Regina', zip: 'S4P 3Y2' },
    };
    const after = {
      customer_id: 100001,
      version: 4,
      store_name: 'Corner Deli',
      store_address: { city: 'Regina', zip: 'S0S 0S0' },
    };
    expect(diffAudit(before, after)).toEqual([{ field: 'store_address.zip', before: 'S4P 3Y2', after: 'S0S 0S0' }]);
  });

  it('a create shows every field as new; a removal as gone', () => {
    expect(diffAudit(null, { customer_id: 1, body: 'Called the owner' })).toEqual([
      { field: 'body', before: null, after: 'Called the owner' },
    ]);
    expect(diffAudit({ customer_id: 1, status: 'active' }, null)).toEqual([
      { field: 'status', before: 'active', after: null },
    ]);
  });

  it('bookkeeping fields show only when nothing else changed', () => {
    expect(diffAudit({ customer_id: 1, version: 6 }, { customer_id: 1, version: 7 })).toEqual([
      { field: 'version', before: '6', after: '7' },
    ]);
  });

  it('empty values read as "empty"; arrays as JSON', () => {
    expect(diffAudit({ customer_id: 1, phone: null, tags: [] }, { customer_id: 1, phone: '555', tags: ['a'] })).toEqual(
      [
        { field: 'phone', before: 'empty', after: '555' },
        { field: 'tags', before: '[]', after: '["a"]' },
      ],
    );
  });

  it('field labels', () => {
    expect(fieldLabel('store_address.zip')).toBe('Store address › zip');
    expect(fieldLabel('underTransfer')).toBe('Under transfer');
  });

  it('describes the entry: the action without the entity prefix, then the record', () => {
    expect(describeAuditEntry({ action: 'customer_note_create', entity: 'customer_note', entity_id: '12' })).toBe(
      'Create · customer note 12',
    );
    expect(describeAuditEntry({ action: 'store_address_update', entity: 'store', entity_id: '500002' })).toBe(
      'Address update · store 500002',
    );
    expect(describeAuditEntry({ action: 'retire', entity: 'terminal', entity_id: null })).toBe('Retire · terminal');
  });
});
