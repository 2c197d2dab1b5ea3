import { Button, Group, NativeSelect, Table, Text, TextInput, type ComboboxItem } from '@mantine/core';
import {
  CURRENCY_SYMBOLS,
  CUSTOMER_BILLING_ITEM_STATUS_CODES,
  CUSTOMER_BILLING_ITEM_STATUS_LABELS,
  customerBillingItemCreateRequest,
  fieldsFromZodError,
  type CatalogueBillingItem,
  type CurrencyCode,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState, type ChangeEvent } from 'react';
import { isApiError } from '../../../lib/api';
import { getBillingItemCatalogueQueryOptions } from '../../../api/catalogue';
import { useAddBillingItem, useBillingItems } from '../api/accounts-billing';
import { usePlans } from '../api/accounts-plans';
import { ListPagination } from '../../../components/list/list-pagination';
import { formatCents, formatDate } from '../../../lib/format';
import { notifySuccess } from '../lib/notify';
import type { StoreTabProps } from '../tab-props';
import { ActionDialog } from './ui/action-dialog';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import { todayIso } from '../../../lib/format';
import { parseAmount } from './ui/money';
import { NoStore, TabFrame } from './ui/tab-frame';
import { FilterCheck, filterOptions, FilterSelect, LiveFilterBar } from '../../../components/list';

const PAGE_SIZE = 25;

const STATUS_OPTIONS = filterOptions(
  'Any status',
  CUSTOMER_BILLING_ITEM_STATUS_CODES,
  CUSTOMER_BILLING_ITEM_STATUS_LABELS,
);

function statusColor(status: string): string {
  return status === 'A' ? 'green' : status === 'I' ? 'yellow' : 'gray';
}

const NO_CATEGORY = 'Without a category';

interface CategoryGroup {
  group: string;
  items: ComboboxItem[];
}

/** Select options grouped by category (the catalogue answers by category, then name; uncategorised last). */
function byCategory(
  items: readonly CatalogueBillingItem[],
  label: (item: CatalogueBillingItem) => string,
): CategoryGroup[] {
  const groups: CategoryGroup[] = [];
  for (const item of items) {
    const group = item.category?.name ?? NO_CATEGORY;
    let last = groups.at(-1);
    if (last?.group !== group) {
      last = { group, items: [] };
      groups.push(last);
    }
    last.items.push({ value: String(item.billing_item_id), label: label(item) });
  }
  return groups;
}

/** 'C$107.99' or 'no catalogue price'. */
function cataloguePrice(item: CatalogueBillingItem): string {
  return item.unit_price_cents === null ? 'no catalogue price' : formatCents(item.unit_price_cents, item.currency);
}

/**
 * Billing items of the selected store. Filters: status, billing item, plan, and "Include previous
 * records" (the spec's checkForPreviousRecords: canceled and ended rows too). With edit rights: Add billing
 * item (priced from the catalogue unless a unit price is given; sent with an Idempotency-Key). The pickers list the
 * catalogue (GET /api/customers/billingitems/{token}/all?custstoreid, decision 070): active items by category, with
 * their price in the store's currency.
 */
export function BillingItemsTab({ customerId, storeId, currency, canEdit }: StoreTabProps) {
  if (storeId === null) return <NoStore title="Billing items" />;
  return (
    <BillingItemsOfStore
      key={storeId}
      customerId={customerId}
      storeId={storeId}
      currency={currency}
      canEdit={canEdit}
    />
  );
}

function BillingItemsOfStore({
  customerId,
  storeId,
  currency,
  canEdit,
}: {
  customerId: number;
  storeId: number;
  currency: CurrencyCode;
  canEdit: boolean;
}) {
  const [status, setStatus] = useState('');
  const [itemId, setItemId] = useState('');
  const [planId, setPlanId] = useState('');
  const [includePrevious, setIncludePrevious] = useState(false);
  const [paging, setPaging] = useState({ key: '', page: 1 });
  const filterKey = `${status}|${itemId}|${planId}|${includePrevious}`;
  const page = paging.key === filterKey ? paging.page : 1;
  const [adding, setAdding] = useState(false);

  const plans = usePlans(customerId, { storeId, limit: 100, offset: 0 });
  // The billing item filter's choices (priced in the store's currency; the Add dialog shares this read and says
  // when it failed, so no toast here).
  const catalogue = useQuery({ ...getBillingItemCatalogueQueryOptions({ storeId }), meta: { silentError: true } });
  const catalogueItems = catalogue.data?.billing_items ?? [];
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
  const planOptions = [
    { value: '', label: 'Any plan' },
    ...(plans.data?.items ?? []).map((p) => ({ value: String(p.id), label: `${p.plan_name} (${p.kind_label})` })),
  ];

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
      <LiveFilterBar label="Filter billing items">
        <FilterSelect label="Status" data={STATUS_OPTIONS} value={status} onChange={setStatus} w={160} />
        {/* The items by category: FilterSelect takes no option groups yet. */}
        <NativeSelect
          label="Billing item"
          data={[
            { value: '', label: 'Any billing item' },
            ...byCategory(catalogueItems, (i) => (i.feature === 'Y' ? `${i.name} (feature)` : i.name)),
          ]}
          value={itemId}
          onChange={(e) => setItemId(e.currentTarget.value)}
          w={260}
        />
        <FilterSelect label="Plan" data={planOptions} value={planId} onChange={setPlanId} w={260} />
        <FilterCheck
          label="Include previous records"
          description="Canceled and ended items too"
          value={includePrevious}
          onChange={setIncludePrevious}
        />
      </LiveFilterBar>
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
      <ListPagination
        hideSinglePage
        label="Billing item pages"
        total={list.data?.total ?? 0}
        pageSize={PAGE_SIZE}
        page={page}
        onChange={(p) => setPaging({ key: filterKey, page: p })}
      />
      {adding && (
        <AddBillingItemDialog
          customerId={customerId}
          storeId={storeId}
          currency={currency}
          plans={planOptions.slice(1)}
          onClose={() => setAdding(false)}
        />
      )}
    </TabFrame>
  );
}

/** A new billing item starts at one unit. */
const DEFAULT_QUANTITY = 1;

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
  plans,
  onClose,
}: {
  customerId: number;
  storeId: number;
  currency: CurrencyCode;
  plans: readonly { value: string; label: string }[];
  onClose: () => void;
}) {
  const add = useAddBillingItem(customerId);
  const keys = useIdempotencyKeys();
  const catalogue = useQuery({ ...getBillingItemCatalogueQueryOptions({ storeId }), meta: { silentError: true } });
  const [draft, setDraft] = useState<ItemDraft>({
    billing_item_id: '',
    plan_id: '',
    quantity: String(DEFAULT_QUANTITY),
    unit_price: '',
    starts_on: todayIso(),
    ends_on: '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const chosen = catalogue.data?.billing_items.find((i) => String(i.billing_item_id) === draft.billing_item_id) ?? null;
  const set = (key: keyof ItemDraft) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    const value = e.currentTarget.value;
    setDraft((d) => ({ ...d, [key]: value }));
    // Another item may have a catalogue price where the last had none.
    setErrors((er) => ({
      ...er,
      [key === 'unit_price' ? 'unit_price_cents' : key]: '',
      ...(key === 'billing_item_id' ? { unit_price_cents: '' } : {}),
    }));
  };

  function confirm() {
    const found: Record<string, string> = {};
    const price = draft.unit_price.trim() ? parseAmount(draft.unit_price, currency) : null;
    if (price && !price.ok) found.unit_price_cents = price.message;
    if (!draft.billing_item_id) found.billing_item_id = 'Choose a billing item.';
    if (chosen && chosen.unit_price_cents === null && !price) {
      found.unit_price_cents = `${chosen.name} has no catalogue price in ${chosen.currency}; enter the unit price.`;
    }
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
          notifySuccess(
            `${item.name} (${formatCents(item.amount_cents, item.currency)}) was added.`,
            'Billing item added',
          );
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
    <ActionDialog
      opened
      title="Add a billing item"
      confirmLabel="Add billing item"
      busy={add.isPending}
      onConfirm={confirm}
      onClose={onClose}
    >
      <NativeSelect
        label="Billing item"
        description={
          chosen
            ? `${chosen.category?.name ?? NO_CATEGORY} · ${chosen.charge_at_level === 'C' ? 'charged once per customer' : 'charged per store'}${chosen.feature === 'Y' ? ' · software feature' : ''} · ${cataloguePrice(chosen)}`
            : undefined
        }
        data={[
          { value: '', label: catalogue.isPending ? 'Loading billing items…' : 'Choose a billing item' },
          ...byCategory(
            catalogue.data?.billing_items ?? [],
            (i) => `${i.name} — ${cataloguePrice(i)} (id ${i.billing_item_id})`,
          ),
        ]}
        value={draft.billing_item_id}
        onChange={set('billing_item_id')}
        error={errors.billing_item_id}
        disabled={!catalogue.isSuccess}
        required
        data-autofocus
      />
      {catalogue.isError && (
        <Group gap="xs" role="alert">
          <Text c="red" size="sm">
            The billing items could not be loaded.
          </Text>
          <Button size="compact-sm" variant="light" onClick={() => void catalogue.refetch()}>
            Try again
          </Button>
        </Group>
      )}
      <NativeSelect
        label="Plan"
        data={[{ value: '', label: 'No plan' }, ...plans]}
        value={draft.plan_id}
        onChange={set('plan_id')}
        error={errors.plan_id}
      />
      <Group grow align="flex-start">
        <TextInput
          label="Quantity"
          inputMode="numeric"
          value={draft.quantity}
          onChange={set('quantity')}
          error={errors.quantity}
          required
        />
        <TextInput
          label="Unit price"
          description={
            chosen && chosen.unit_price_cents === null
              ? `No catalogue price in ${chosen.currency}: enter one`
              : `Empty: the catalogue price${chosen ? ` (${cataloguePrice(chosen)})` : ''}`
          }
          leftSection={CURRENCY_SYMBOLS[currency]}
          leftSectionWidth={36}
          inputMode="decimal"
          value={draft.unit_price}
          onChange={set('unit_price')}
          error={errors.unit_price_cents}
        />
      </Group>
      <Group grow align="flex-start">
        <TextInput
          type="date"
          label="Starts on"
          value={draft.starts_on}
          onChange={set('starts_on')}
          error={errors.starts_on}
        />
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
