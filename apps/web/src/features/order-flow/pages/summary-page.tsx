import { Alert, Anchor, Button, Fieldset, List, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import {
  centsToDecimal,
  describeOrderPaymentMethod,
  ORDER_CUSTOMER_TYPE_LABELS,
  ORDER_STATUS,
  orderCustomerType,
  OTHER_IDS,
  orderStatusLabel,
  orderTotals,
  PAYMENT_PLAN_KIND,
  taxLines,
  type OrderDocument,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { getTaxQueryOptions } from '../api/order-flow';
import { OrderStepPage, type StepContext } from '../components/order-step-page';
import { StepFrame } from '../components/step-frame';
import { OrderHoldAlert } from '../../../components/order-hold-alert';
import { OrderTotalsTable } from '../../../components/totals-table';
import { countryOf } from '../lib/doc';
import { formatDate } from '../../../lib/format';
import { stepPath, type StepId } from '../lib/flow';

/** Which step a submit error's field belongs to ('CustomerInfo.email' → store information). */
export function stepOfField(field: string, doc: OrderDocument): StepId {
  const [head, index] = field.split('.');
  if (head === 'PaymentPlanInfo' || head === 'PaymentInstrumentInfo') {
    const list = head === 'PaymentPlanInfo' ? doc.PaymentPlanInfo : doc.PaymentInstrumentInfo;
    const entry = index !== undefined ? list?.[Number(index)] : undefined;
    return entry?.type === PAYMENT_PLAN_KIND.HARDWARE ? 'paymentPlanMethod' : 'charges';
  }
  if (
    [
      'noOfTerminals',
      'BillingItemInfo',
      'BundleInfo',
      'PromotionInfo',
      'additionalDiscount',
      'totalSalePrice',
    ].includes(head!)
  )
    return 'saleSummary';
  return 'storeInfo';
}

const STEP_LABELS: Readonly<Record<StepId, string>> = {
  storeInfo: 'Store information',
  saleSummary: 'Select hardware',
  paymentPlanMethod: 'Payment (plan / method)',
  charges: 'Recurring charges',
  summary: 'Summary',
};

function address(a: OrderDocument['HomeAddress']): string {
  return a
    ? [a.address1, a.city, [a.state, a.zip].filter(Boolean).join(' '), a.country].filter(Boolean).join(', ')
    : '—';
}

function SummaryStep({ orderId, doc, orderType, flow }: StepContext) {
  const country = countryOf(doc);
  const currency = country === 'CA' ? 'CAD' : 'USD';
  const base = orderTotals(doc);
  const state = doc.StoreInfo?.StoreAddress?.state ?? '';
  const taxable = Math.max(0, base.subtotalCents - base.discountCents);
  const storeId = Number(doc.StoreInfo?.customerStoreId) || null;
  const tax = useQuery(getTaxQueryOptions(orderId, { state, country, currency, amountCents: taxable, storeId }));
  const totals = orderTotals(doc, tax.data?.tax_cents ?? 0);
  // The tax once, per component named for the jurisdiction (decision 149).
  const taxRows = taxLines({
    taxCents: totals.taxCents,
    country: tax.data?.country ?? country,
    state: tax.data?.state ?? state,
    components: (tax.data?.components ?? []).map((c) => ({
      component: c.component,
      rateBasisPoints: c.rate_basis_points,
    })),
  });
  const [busy, setBusy] = useState(false);
  const [submitted, setSubmitted] = useState<{ status: string } | null>(null);
  const [problems, setProblems] = useState<Record<string, string>>({});

  const submit = async () => {
    setBusy(true);
    setProblems({});
    const outcome = await flow.save({ ...doc, totalSalePrice: centsToDecimal(totals.totalCents) }, { submit: true });
    setBusy(false);
    if (outcome === 'saved') setSubmitted({ status: flow.record?.status ?? ORDER_STATUS.PENDING_CONTRACT_SIGN });
    else setProblems(flow.errors);
  };
  const fieldProblems = Object.keys(problems).length ? problems : flow.errors;
  const c = doc.CustomerInfo ?? {};
  const s = doc.StoreInfo ?? {};
  const monthly = (doc.PaymentPlanInfo ?? []).find((p) => p.type === PAYMENT_PLAN_KIND.MONTHLY);

  if (submitted) {
    return (
      <Stack maw={720}>
        {/* The page keeps its one h1 once the order is submitted (decision 136). */}
        <Title order={1} size="h2">
          Summary
        </Title>
        <Alert color="green" title="Order submitted" role="status">
          Order {flow.record?.unifiedOrderId} is now{' '}
          {orderStatusLabel(flow.record?.status ?? ORDER_STATUS.PENDING_CONTRACT_SIGN)}: the contract link was e-mailed
          to {c.email}.
        </Alert>
        <Anchor component={Link} to="/order">
          Back to the order list
        </Anchor>
      </Stack>
    );
  }
  return (
    <StepFrame
      orderId={orderId}
      step="summary"
      orderType={orderType}
      country={country}
      title="Summary"
      reference={flow.record?.unifiedOrderId}
      pending={flow.pending}
      busy={busy}
      submitLabel="Submit order"
      onSubmit={() => void submit()}
    >
      {Object.keys(fieldProblems).length > 0 && (
        <Alert color="red" title="The order is not complete" role="alert">
          <List>
            {Object.entries(fieldProblems).map(([field, message]) => {
              const step = stepOfField(field, doc);
              return (
                <List.Item key={field}>
                  {message}{' '}
                  <Anchor component={Link} to={stepPath(step, orderId)}>
                    Fix it on “{STEP_LABELS[step]}”
                  </Anchor>
                </List.Item>
              );
            })}
          </List>
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <Fieldset legend="Merchant">
          <Text>{[c.firstName, c.lastName].filter(Boolean).join(' ') || '—'}</Text>
          <Text>{c.email || '—'}</Text>
          <Text>{c.phone || '—'}</Text>
          <Text>Tax id {c.federalTaxId || '—'}</Text>
          <Text>{address(doc.HomeAddress)}</Text>
          <Anchor component={Link} to={stepPath('storeInfo', orderId)}>
            Edit store information
          </Anchor>
        </Fieldset>
        <Fieldset legend="Store">
          <Text>{s.doingBusinessAs || '—'}</Text>
          <Text>{s.storeName || '—'}</Text>
          <Text>{address(s.StoreAddress)}</Text>
          <Text>{orderType === 'P' ? `${doc.noOfTerminals ?? 0} terminal(s)` : 'Non-POS order (no hardware)'}</Text>
          <Text>
            Kind of sale: {ORDER_CUSTOMER_TYPE_LABELS[orderCustomerType(doc, flow.record?.customer_id ?? null)]}
          </Text>
        </Fieldset>
        <Fieldset legend="Payment">
          {orderType === 'P' && (
            <Text>
              Hardware:{' '}
              {describeOrderPaymentMethod(
                (doc.PaymentInstrumentInfo ?? []).find((m) => m.type === PAYMENT_PLAN_KIND.HARDWARE),
              ) ?? 'not chosen'}
            </Text>
          )}
          <Text>
            Service plan:{' '}
            {describeOrderPaymentMethod(
              (doc.PaymentInstrumentInfo ?? []).find((m) => m.type === PAYMENT_PLAN_KIND.MONTHLY),
            ) ?? 'not chosen'}
          </Text>
          <Text>{Number(monthly?.paymentPlanId) === OTHER_IDS.YEARLY_PLAN_ID ? 'Yearly plan' : 'Monthly plan'}</Text>
          <Anchor component={Link} to={stepPath('charges', orderId)}>
            Edit recurring charges
          </Anchor>
        </Fieldset>
      </SimpleGrid>
      {tax.isError && (
        <Text c="dimmed">
          Tax could not be computed for {state || 'this store'}; it is added when the order is invoiced.
        </Text>
      )}
      {tax.data?.exempt && (
        <Text role="status">
          No sales tax: the store’s Arizona tax certificate is valid on {formatDate(tax.data.date)}.
        </Text>
      )}
      <OrderTotalsTable totals={totals} caption={`Totals (${totals.currency})`} showTax taxLines={taxRows} />
      {orderType === 'P' && <OrderHoldAlert orderId={orderId} canRetry />}
      <Button component={Link} to="/order" variant="subtle" w="fit-content">
        Save for later and go to the order list
      </Button>
    </StepFrame>
  );
}

/** #/summary/{orderId}: everything at a glance with taxes and totals in the store's currency; submit. */
export default function SummaryPage() {
  return <OrderStepPage>{(ctx) => <SummaryStep {...ctx} />}</OrderStepPage>;
}
