import { Button, Checkbox, Group, NativeSelect, Table, Text, TextInput } from '@mantine/core';
import {
  CURRENCY_SYMBOLS,
  CUSTOMER_BILLING_ITEM_STATUS_CODES,
  CUSTOMER_BILLING_ITEM_STATUS_LABELS,
  customerBillingItemCreateRequest,
  fieldsFromZodError,
  type CurrencyCode,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState, type ChangeEvent } from 'react';
import { isApiError } from '../../../lib/api';
import { useAddBillingItem, useBillingItems } from '../api/accounts-billing';
import { getFeaturesQueryOptions, usePlans } from '../api/accounts-plans';
import { ListPagination } from '../components/list-pagination';
import { formatCents, formatDate } from '../lib/format';
import { notifySuccess } from '../lib/notify';
import type { StoreTabProps } from '../tab-props';
import { billingCatalogue, type CatalogueOption } from './billing-catalogue';
import { ActionDialog } from './ui/action-dialog';
import { useIdempotencyKeys } from './ui/idempotency';
import { parseAmount, todayIso } from './ui/money';
import { NoStore, TabFrame } from './ui/tab-frame';

const PAGE_SIZE = 25;

const STATUS_OPTIONS = [
  { value: '', label: 'Any status' },
  ...CUSTOMER_BILLING_ITEM_STATUS_CODES.map((s) => ({ value: s, label: CUSTOMER_BILLING_ITEM_STATUS_LABELS[s] })),
];

function statusColor(status: string): string {
  return status === 'A' ? 'green' : status === 'I' ? 'yellow' : 'gray';
}

/**
 * Billing items of the selected store. Filters: status, billing item, plan, and "Include previous
 * records" (the spec's checkForPreviousRecords: canceled and ended rows too). With edit rights: Add billing
 * item (priced from the catalogue unless a unit price is given; sent with an Idempotency-Key).
 */
export function BillingItemsTab({ customerId, storeId, currency, canEdit }: StoreTabProps) {
  if (storeId === null) return <NoStore title="Billing items" />;
  return <BillingItemsOfStore key={storeId} customerId={customerId} storeId={storeId} currency={currency} canEdit={canEdit} />;
}

function BillingItemsOfStore({ customerId, storeId, currency, canEdit }: { customerId: number; storeId: number; currency: CurrencyCode; canEdit: boolean }) {
  const [status, setStatus] = useState('');
  const [itemId, setItemId] = useState('');
  const [planId, setPlanId] = useState('');
  const [includePrevious, setIncludePrevious] = useState(false);
  const [paging, setPaging] = useState({ key: '', page: 1 });
  const filterKey = `${status}|${itemId}|${planId}|${includePrevious}`;
  const page = paging.key === filterKey ? paging.page : 1;
  const [adding, setAdding] = useState(false);

  const plans = usePlans(customerId, { storeId, limit: 100, offset: 0 });
  // Only to name the feature items in the pickers: a failure leaves the §9 items, without a toast.
  const features = useQuery({ ...getFeaturesQueryOptions(customerId, storeId), meta: { silentError: true } });
  const catalogue = billingCatalogue(features.data?.features);
  const list = useBillingItems(customerId, {
    storeId,
    planId: planId ? Number(planId) : null,
    status: status || null,
    billingItemId: itemId ? Number(itemId) : null,
    includePrevious,
    limit: PAGE_SIZE,
    offset: (page - 1) * PAGE_SIZE,
  });
  const rows = list.data?.customer_billing_items ?? [];
  const planOptions = [{ value: '', label: 'Any plan' }, ...(plans.data?.items ?? []).map((p) => ({ value: String(p.id), label: `${p.plan_name} (${p.kind_label})` }))];

  return (
    <TabFrame
      title="Billing items"
      isPending={list.isPending}
      error={list.error}
      onRetry={() => void list.refetch()}
      actions={
        canEdit && (
          <Button size="sm" onClick={() => setAdding(true)}>
            Add billing item
          </Button>
        )
      }
    >
      <form role="search" aria-label="Filter billing items" onSubmit={(e) => e.preventDefault()}>
        <Group align="flex-end" gap="sm">
          <NativeSelect label="Status" data={STATUS_OPTIONS} value={status} onChange={(e) => setStatus(e.currentTarget.value)} w={160} />
          <NativeSelect
            label="Billing item"
            data={[{ value: '', label: 'Any billing item' }, ...catalogue.map((o) => ({ value: String(o.id), label: o.label }))]}
            value={itemId}
            onChange={(e) => setItemId(e.currentTarget.value)}
            w={260}
          />
          <NativeSelect label="Plan" data={planOptions} value={planId} onChange={(e) => setPlanId(e.currentTarget.value)} w={260} />
          <Checkbox
            label="Include previous records"
            description="Canceled and ended items too"
            checked={includePrevious}
            onChange={(e) => setIncludePrevious(e.currentTarget.checked)}
          />
        </Group>
      </form>
      <Table.ScrollContainer minWidth={900}>
        <Table striped verticalSpacing="xs" fz="sm" captionSide="top">
          <Table.Caption>Billing items of store {storeId}</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Item</Table.Th>
              <Table.Th scope="col">Item id</Table.Th>
              <Table.Th scope="col">Plan</Table.Th>
              <Table.Th scope="col">Qty</Table.Th>
              <Table.Th scope="col">Unit price</Table.Th>
              <Table.Th scope="col">Amount</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Starts</Table.Th>
              <Table.Th scope="col">Ends</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={9}>
                  <Text c="dimmed">No billing items match.</Text>
                </Table.Td>
              </Table.Tr>
            )}
            {rows.map((r) => (
              <Table.Tr key={r.id}>
                <Table.Th scope="row" fw={600}>
                  {r.name}
                  {r.feature === 'Y' && (
                    <Text span size="xs" c="dimmed">
                      {' '}
                      (feature)
                    </Text>
                  )}
                </Table.Th>
                <Table.Td>{r.billing_item_id}</Table.Td>
                <Table.Td>{r.plan_id ?? '—'}</Table.Td>
                <Table.Td>{r.quantity}</Table.Td>
                <Table.Td>{formatCents(r.unit_price_cents, r.currency)}</Table.Td>
                <Table.Td>{formatCents(r.amount_cents, r.currency)}</Table.Td>
                <Table.Td>
                  <Text span size="sm" c={statusColor(r.status)} fw={600}>
                    {r.status_label}
                  </Text>
                </Table.Td>
                <Table.Td>{formatDate(r.starts_on)}</Table.Td>
                <Table.Td>{formatDate(r.ends_on)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListPagination label="Billing item pages" total={list.data?.total ?? 0} pageSize={PAGE_SIZE} page={page} onChange={(p) => setPaging({ key: filterKey, page: p })} />
      {adding && (
        <AddBillingItemDialog
          customerId={customerId}
          storeId={storeId}
          currency={currency}
          catalogue={catalogue}
          plans={planOptions.slice(1)}
          onClose={() => setAdding(false)}
        />
      )}
    </TabFrame>
  );
}

interface ItemDraft {
  billing_item_id: string;
  plan_id: string;
  quantity: string;
  unit_price: string;
  starts_on: string;
  ends_on: string;
}

function AddBillingItemDialog({
  customerId,
  storeId,
  currency,
  catalogue,
  plans,
  onClose,
}: {
  customerId: number;
  storeId: number;
  currency: CurrencyCode;
  catalogue: readonly CatalogueOption[];
  plans: readonly { value: string; label: string }[];
  onClose: () => void;
}) {
  const add = useAddBillingItem(customerId);
  const keys = useIdempotencyKeys();
  const [draft, setDraft] = useState<ItemDraft>({ billing_item_id: '', plan_id: '', quantity: '1', unit_price: '', starts_on: todayIso(), ends_on: '' });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const set = (key: keyof ItemDraft) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    const value = e.currentTarget.value;
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((er) => ({ ...er, [key === 'unit_price' ? 'unit_price_cents' : key]: '' }));
  };

  function confirm() {
    const found: Record<string, string> = {};
    const price = draft.unit_price.trim() ? parseAmount(draft.unit_price, currency) : null;
    if (price && !price.ok) found.unit_price_cents = price.message;
    if (!draft.billing_item_id) found.billing_item_id = 'Choose a billing item.';
    const quantity = /^\d{1,5}$/.test(draft.quantity.trim()) ? Number(draft.quantity.trim()) : NaN;
    const body = {
      billing_item_id: Number(draft.billing_item_id),
      store_id: storeId,
      plan_id: draft.plan_id ? Number(draft.plan_id) : null,
      quantity,
      unit_price_cents: price?.ok ? price.cents : undefined,
      starts_on: draft.starts_on || undefined,
      ends_on: draft.ends_on || null,
    };
    const parsed = customerBillingItemCreateRequest.safeParse(body);
    if (!parsed.success) Object.assign(found, { ...fieldsFromZodError(parsed.error), ...found });
    if (Number.isNaN(quantity)) found.quantity = 'Enter a whole number of at least 1.';
    if (Object.values(found).some(Boolean)) {
      setErrors(found);
      return;
    }
    const action = 'add-billing-item';
    add.mutate(
      { body, idempotencyKey: keys.keyFor(action) },
      {
        onSuccess: (item) => {
          keys.settle(action);
          notifySuccess(`${item.name} (${formatCents(item.amount_cents, item.currency)}) was added.`, 'Billing item added');
          onClose();
        },
        onError: (e) => {
          keys.settle(action, e);
          // Field messages go to their fields; a refusal without fields (e.g. 409) is said in the dialog too.
          if (isApiError(e)) setErrors(Object.keys(e.fields).length > 0 ? e.fields : { _: e.message });
        },
      },
    );
  }

  return (
    <ActionDialog opened title="Add a billing item" confirmLabel="Add billing item" busy={add.isPending} onConfirm={confirm} onClose={onClose}>
      <NativeSelect
        label="Billing item"
        data={[{ value: '', label: 'Choose a billing item' }, ...catalogue.map((o) => ({ value: String(o.id), label: `${o.label} — id ${o.id}` }))]}
        value={draft.billing_item_id}
        onChange={set('billing_item_id')}
        error={errors.billing_item_id}
        required
        data-autofocus
      />
      <NativeSelect label="Plan" data={[{ value: '', label: 'No plan' }, ...plans]} value={draft.plan_id} onChange={set('plan_id')} error={errors.plan_id} />
      <Group grow align="flex-start">
        <TextInput label="Quantity" inputMode="numeric" value={draft.quantity} onChange={set('quantity')} error={errors.quantity} required />
        <TextInput
          label="Unit price"
          description="Empty: the catalogue price"
          leftSection={CURRENCY_SYMBOLS[currency]}
          leftSectionWidth={36}
          inputMode="decimal"
          value={draft.unit_price}
          onChange={set('unit_price')}
          error={errors.unit_price_cents}
        />
      </Group>
      <Group grow align="flex-start">
        <TextInput type="date" label="Starts on" value={draft.starts_on} onChange={set('starts_on')} error={errors.starts_on} />
        <TextInput type="date" label="Ends on" value={draft.ends_on} onChange={set('ends_on')} error={errors.ends_on} />
      </Group>
      {errors._ && (
        <Text c="red" size="sm" role="alert">
          {errors._}
        </Text>
      )}
    </ActionDialog>
  );
}
