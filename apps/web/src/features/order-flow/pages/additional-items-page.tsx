import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  ADD_TERMINAL_ORDER_SUMMARY,
  centsToDecimal,
  ORDER_STATUS,
  orderStatusLabel,
  orderTotals,
  SUMMARY_LABEL_TEXT,
  type CurrencyCode,
  type OrderBillingItemEntry,
  type OrderDocument,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { getProductsQueryOptions } from '../../../api/catalogue';
import { useCustomer } from '../../../api/customers';
import { Spinner } from '../../../components/spinner';
import { describeError } from '../../../lib/error-message';
import { usePageCountry } from '../../../lib/header-state';
import { useCreateOrder } from '../api/order-flow';
import { ProductQuantities, terminalCount } from '../components/product-quantities';
import { OrderTotalsTable } from '../../../components/totals-table';
import { stepPath } from '../lib/flow';
import { useOrderFlow } from '../lib/use-order-flow';
import { startingDocument } from './new-order-page';

/** Add-on orders carry this marker in the document (decision 090). */
export const ADD_ON_KIND = 'additional-items';
/** An add-on order's items can change while it is a draft (or sent back as incomplete). */
const EDITABLE: readonly string[] = [ORDER_STATUS.DRAFT, ORDER_STATUS.INCOMPLETE];

function useTerminalIds(currency: CurrencyCode) {
  const products = useQuery(getProductsQueryOptions(currency));
  return new Set(
    (products.data?.products ?? []).filter((p) => p.terminal_product || p.kind === 'terminal').map((p) => p.product_id),
  );
}

/** #/additional-items/{customerId}/{storeId}: more hardware for an existing store → a new add-on order. */
function NewAddOn({ customerId, storeId }: { readonly customerId: number; readonly storeId: number }) {
  const navigate = useNavigate();
  // The customer page's own query (api/customers.ts): an edit of the customer refreshes this page too.
  const customer = useCustomer(customerId);
  const [items, setItems] = useState<OrderBillingItemEntry[]>([]);
  const create = useCreateOrder();
  const store = customer.data?.stores.find((s) => s.store_id === storeId);
  const country = store?.country === 'CA' ? 'CA' : 'US';
  const currency = country === 'CA' ? 'CAD' : 'USD';
  const terminalIds = useTerminalIds(currency);
  usePageCountry(store?.country);
  if (customer.isPending) return <Spinner busy />;
  if (customer.isError || !store) {
    return (
      <Alert color="red" title="Store not found">
        {customer.isError ? describeError(customer.error).message : `Customer ${customerId} has no store ${storeId}.`}{' '}
        Open the store from the customer page.
      </Alert>
    );
  }
  const doc: OrderDocument = {
    ...startingDocument({ orderType: 'P', flow: 'AR', country, customer: customer.data, store }),
    BillingItemInfo: items,
    orderKind: ADD_ON_KIND,
    noOfTerminals: terminalCount(items, terminalIds),
  };
  const totals = orderTotals(doc);

  const createOrder = () =>
    create.mutate({ ...doc, totalSalePrice: centsToDecimal(totals.totalCents) } as Record<string, unknown>, {
      onSuccess: (created) => {
        notifications.show({
          color: 'green',
          title: 'Add-on order created',
          message: `Order ${created.unifiedOrderId} is a draft.`,
        });
        void navigate(`/additional-items/order/${created.orderInfoId}/${created.status}`);
      },
      onError: (error) => {
        const said = describeError(error);
        notifications.show({ color: 'red', title: said.title, message: said.message });
      },
    });

  return (
    <Stack gap="md" maw={900}>
      <Title order={1} size="h2">
        Additional items — {store.doing_business_as}
      </Title>
      <Text>
        {customer.data.legal_name} · store {store.store_id} · {store.terminals} terminal(s) today
      </Text>
      <ProductQuantities currency={currency} items={items} onChange={setItems} />
      <OrderTotalsTable totals={totals} caption={SUMMARY_LABEL_TEXT[ADD_TERMINAL_ORDER_SUMMARY]} />
      <Group>
        <Button onClick={createOrder} loading={create.isPending} disabled={items.length === 0}>
          Create add-on order
        </Button>
      </Group>
    </Stack>
  );
}

/** #/additional-items/order/{orderId}/{status}: the add-on order's summary; its items can change while it is a draft. */
function AddOnOrder({ orderId }: { readonly orderId: number }) {
  const navigate = useNavigate();
  const flow = useOrderFlow(orderId);
  const [items, setItems] = useState<OrderBillingItemEntry[] | null>(null);
  const [busy, setBusy] = useState(false);
  const country = flow.doc?.StoreInfo?.StoreAddress?.country === 'CA' ? 'CA' : 'US';
  const terminalIds = useTerminalIds(country === 'CA' ? 'CAD' : 'USD');
  usePageCountry(country);
  if (flow.query.isError)
    return (
      <Alert color="red" title="Order not found">
        {describeError(flow.query.error).message}
      </Alert>
    );
  if (!flow.doc || !flow.record) return <Spinner busy />;
  const current = items ?? ((flow.doc.BillingItemInfo ?? []) as OrderBillingItemEntry[]);
  const doc: OrderDocument = {
    ...flow.doc,
    BillingItemInfo: current,
    noOfTerminals: terminalCount(current, terminalIds),
  };
  const totals = orderTotals(doc);
  const status = flow.record.status;
  const editable = EDITABLE.includes(status);

  const save = async (then?: string) => {
    setBusy(true);
    const outcome = await flow.save({ ...doc, totalSalePrice: centsToDecimal(totals.totalCents) });
    setBusy(false);
    if (outcome === 'saved' || outcome === 'kept') {
      setItems(null);
      if (then) void navigate(then);
      else
        notifications.show({
          color: 'green',
          title: 'Items saved',
          message: `Order ${flow.record?.unifiedOrderId} has the new items.`,
        });
    }
  };

  return (
    <Stack gap="md" maw={900}>
      <Title order={1} size="h2">
        Add-on order {flow.record.unifiedOrderId}
      </Title>
      <Text>
        {doc.StoreInfo?.doingBusinessAs} · status {orderStatusLabel(status) ?? status}
      </Text>
      {editable ? (
        <ProductQuantities currency={totals.currency} items={current} onChange={setItems} />
      ) : (
        <Text c="dimmed">The order is past Draft: its items can no longer change here.</Text>
      )}
      <OrderTotalsTable totals={totals} caption={SUMMARY_LABEL_TEXT[ADD_TERMINAL_ORDER_SUMMARY]} />
      {editable && (
        <Group>
          <Button variant="default" onClick={() => void save()} loading={busy}>
            Save items
          </Button>
          <Button onClick={() => void save(stepPath('paymentPlanMethod', orderId))} loading={busy}>
            Continue to payment
          </Button>
        </Group>
      )}
      <Anchor component={Link} to="/order">
        Back to the order list
      </Anchor>
    </Stack>
  );
}

/** The two additional-items routes (spec §2; the summary is the spec's 'AddTerminalOrderSummary'). */
export default function AdditionalItemsPage() {
  const params = useParams();
  if (params.orderId) return <AddOnOrder key={params.orderId} orderId={Number(params.orderId)} />;
  return <NewAddOn customerId={Number(params.customerId)} storeId={Number(params.storeId)} />;
}
