import type { OrderDocument } from '@pos/domain';
import { useState } from 'react';

/** The step's working copy of the document: the loaded order (steps mount once it is there), edited until saved. */
export function useDraft(doc: OrderDocument): [OrderDocument, (update: (d: OrderDocument) => OrderDocument) => void] {
  const [draft, setDraft] = useState<OrderDocument>(doc);
  return [draft, (update) => setDraft((d) => update(d))];
}
