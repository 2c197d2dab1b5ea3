import { STORE_FILE_DELETERS, STORE_FILE_UPLOADERS, ORDER_FILE_DELETERS, type OrderDocument } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { getPermissionsQueryOptions } from '../../../api/permissions';
import type { StoreFileOwner } from '../../../api/store-files';
import { StoreFilesPanel } from '../../../components/store-files-panel';

const PRIVILEGES = [...new Set([...STORE_FILE_UPLOADERS, ...STORE_FILE_DELETERS, ...ORDER_FILE_DELETERS])];

/** The existing store an order is for (StoreInfo.customerStoreId), when it names one. */
export function orderStoreId(doc: OrderDocument): number | null {
  const raw = (doc.StoreInfo as { customerStoreId?: unknown } | null | undefined)?.customerStoreId;
  const id = typeof raw === 'string' ? Number(raw) : raw;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * The store's pictures, business licenses and reseller files on the store-information step (decision 160). An order for
 * an existing store uploads straight to that store (its editors on the customer page delete). A new merchant has no
 * store before Complete: the files go to the order — the route's, saved already (the new-order page creates it before
 * this step) — and Complete gives them the new store; until then the order's editors may remove one they added.
 */
export function OrderStoreFiles({ doc }: { readonly doc: OrderDocument }) {
  const storeId = orderStoreId(doc);
  const orderId = Number(useParams().orderId);
  const permissions = useQuery(getPermissionsQueryOptions(PRIVILEGES));
  const flags = permissions.data ?? {};
  const any = (privileges: readonly string[]) => privileges.some((p) => flags[p] === true);
  const owner: StoreFileOwner | null =
    storeId !== null
      ? { kind: 'store', id: storeId }
      : Number.isInteger(orderId) && orderId > 0
        ? { kind: 'order', id: orderId }
        : null;
  if (owner === null) return null;
  return (
    <StoreFilesPanel
      key={`${owner.kind}-${owner.id}`}
      owner={owner}
      description={
        owner.kind === 'order'
          ? "A new merchant's files are kept with this order and move to the new store when the order is complete."
          : undefined
      }
      canUpload={any(STORE_FILE_UPLOADERS)}
      canDelete={any(owner.kind === 'order' ? ORDER_FILE_DELETERS : STORE_FILE_DELETERS)}
    />
  );
}
