/**
 * The Activity tab's "what changed" (decision 063): an audit entry carries the record before and after
 * the change; people read the fields that differ. Nested objects (addresses) are flattened to dotted
 * paths ('store_address.zip'); `customer_id`, `version` and timestamps are bookkeeping and not listed
 * unless they are all that changed.
 */
export interface FieldChange {
  readonly field: string;
  /** The value as text; null when the field did not exist on that side. */
  readonly before: string | null;
  readonly after: string | null;
}

const BOOKKEEPING = new Set(['customer_id', 'version', 'updated_at', 'updatedAt', 'created_at', 'createdAt']);

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function flatten(value: unknown, prefix: string, out: Map<string, unknown>): void {
  if (isPlainObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0 && prefix) out.set(prefix, {});
    for (const [key, inner] of entries) flatten(inner, prefix ? `${prefix}.${key}` : key, out);
    return;
  }
  out.set(prefix || 'value', value);
}

/** A value as people read it: text as is, null as 'empty', the rest as JSON. */
export function displayValue(value: unknown): string {
  if (value === null || value === undefined || value === '') return 'empty';
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return JSON.stringify(value);
}

/** The fields that differ between `before` and `after` (either may be null: a create or a removal). */
export function diffAudit(before: unknown, after: unknown): FieldChange[] {
  const a = new Map<string, unknown>();
  const b = new Map<string, unknown>();
  if (before !== null && before !== undefined) flatten(before, '', a);
  if (after !== null && after !== undefined) flatten(after, '', b);
  const fields = [...new Set([...a.keys(), ...b.keys()])];
  const changes: FieldChange[] = [];
  for (const field of fields) {
    const had = a.has(field);
    const has = b.has(field);
    const x = a.get(field);
    const y = b.get(field);
    if (had && has && JSON.stringify(x) === JSON.stringify(y)) continue;
    changes.push({ field, before: had ? displayValue(x) : null, after: has ? displayValue(y) : null });
  }
  const meaningful = changes.filter((c) => !BOOKKEEPING.has(c.field.split('.').at(-1) ?? c.field));
  return meaningful.length > 0 ? meaningful : changes;
}

/** 'store_address.zip' → 'Store address › zip'; 'elmer_id' → 'Elmer id'. */
export function fieldLabel(field: string): string {
  return field
    .split('.')
    .map((part, i) => {
      const words = part
        .replace(/_/g, ' ')
        .replace(/([a-z])([A-Z])/g, '$1 $2')
        .toLowerCase();
      return i === 0 ? words.charAt(0).toUpperCase() + words.slice(1) : words;
    })
    .join(' › ');
}

function words(value: string): string {
  const text = value.replace(/[_-]+/g, ' ').trim();
  return text.charAt(0).toUpperCase() + text.slice(1);
}

/**
 * An entry's "what" in words: the action without the entity's own name in front, then the record —
 * ('customer_note_create', 'customer_note', 12) → 'Create · customer note 12';
 * ('store_address_update', 'store', 500002) → 'Address update · store 500002'; ('retire', 'terminal', 7) → 'Retire · terminal 7'.
 */
export function describeAuditEntry(entry: {
  readonly action: string;
  readonly entity: string;
  readonly entity_id: string | null;
}): string {
  const prefix = `${entry.entity}_`;
  const verb =
    entry.action.startsWith(prefix) && entry.action.length > prefix.length
      ? entry.action.slice(prefix.length)
      : entry.action;
  return `${words(verb)} · ${words(entry.entity).toLowerCase()}${entry.entity_id ? ` ${entry.entity_id}` : ''}`;
}
