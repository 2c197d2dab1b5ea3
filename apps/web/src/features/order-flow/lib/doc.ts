import type { OrderDocument } from '@pos/domain';

/** A copy of `doc` with the value at `path` ('StoreInfo.StoreAddress.zip') replaced; missing objects are made. */
export function setIn(doc: OrderDocument, path: string, value: unknown): OrderDocument {
  const keys = path.split('.');
  const root: Record<string, unknown> = { ...(doc as Record<string, unknown>) };
  let node = root;
  for (const key of keys.slice(0, -1)) {
    const child = node[key];
    const copy = Array.isArray(child)
      ? [...(child as unknown[])]
      : { ...((child as Record<string, unknown> | null) ?? {}) };
    node[key] = copy;
    node = copy as Record<string, unknown>;
  }
  node[keys.at(-1)!] = value;
  return root as OrderDocument;
}

/** The value at `path`, as text for an input. */
export function textAt(doc: OrderDocument | undefined, path: string): string {
  let node: unknown = doc;
  for (const key of path.split('.')) {
    if (node == null || typeof node !== 'object') return '';
    node = (node as Record<string, unknown>)[key];
  }
  return node == null ? '' : String(node);
}

/** The order's country: the store's, else the merchant's home. */
export function countryOf(doc: OrderDocument | undefined): 'US' | 'CA' {
  const c = doc?.StoreInfo?.StoreAddress?.country || doc?.HomeAddress?.country;
  return c === 'CA' ? 'CA' : 'US';
}

/** The document with its plan entry `index` changed by `patch` (the payment and charges steps). */
export function withPlan(doc: OrderDocument, index: number, patch: Record<string, unknown>): OrderDocument {
  return { ...doc, PaymentPlanInfo: (doc.PaymentPlanInfo ?? []).map((p, i) => (i === index ? { ...p, ...patch } : p)) };
}

/** The document with its payment-method entry `index` replaced by `next`. */
export function withMethod(
  doc: OrderDocument,
  index: number,
  next: NonNullable<OrderDocument['PaymentInstrumentInfo']>[number],
): OrderDocument {
  return { ...doc, PaymentInstrumentInfo: (doc.PaymentInstrumentInfo ?? []).map((m, i) => (i === index ? next : m)) };
}
