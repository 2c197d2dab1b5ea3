import { Paper, Text, Title } from '@mantine/core';
import { STORE_FILE_DELETERS, STORE_FILE_UPLOADERS, type OrderDocument } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { getPermissionsQueryOptions } from '../../../api/permissions';
import { StoreFilesPanel } from '../../../components/store-files-panel';

const PRIVILEGES = [...new Set([...STORE_FILE_UPLOADERS, ...STORE_FILE_DELETERS])];

/** The existing store an order is for (StoreInfo.customerStoreId), when it names one. */
export function orderStoreId(doc: OrderDocument): number | null {
  const raw = (doc.StoreInfo as { customerStoreId?: unknown } | null | undefined)?.customerStoreId;
  const id = typeof raw === 'string' ? Number(raw) : raw;
  return typeof id === 'number' && Number.isInteger(id) && id > 0 ? id : null;
}

/**
 * The store's pictures, business licenses and reseller files on the store-information step (decision 160). An order for
 * an existing store uploads straight to that store; a new merchant's store exists from Complete on, so the step says
 * where to add them then (the customer page's store panel).
 */
export function OrderStoreFiles({ doc }: { readonly doc: OrderDocument }) {
  const storeId = orderStoreId(doc);
  const permissions = useQuery(getPermissionsQueryOptions(PRIVILEGES));
  const flags = permissions.data ?? {};
  if (storeId === null)
    return (
      <Paper withBorder p="sm" component="section" aria-labelledby="order-store-files-title">
        <Title order={2} size="h5" id="order-store-files-title" mb="xs">
          Store files
        </Title>
        <Text size="sm">
          Store pictures, business licenses and reseller files are added to the store once the order is complete: open
          the customer and use the store&apos;s Store files panel.
        </Text>
      </Paper>
    );
  return (
    <StoreFilesPanel
      storeId={storeId}
      canUpload={STORE_FILE_UPLOADERS.some((p) => flags[p] === true)}
      canDelete={STORE_FILE_DELETERS.some((p) => flags[p] === true)}
    />
  );
}
