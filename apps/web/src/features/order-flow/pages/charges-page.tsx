import { Checkbox, Fieldset, Group, Radio, TextInput } from '@mantine/core';
import {
  centsToDecimal,
  defaultRecurringAmount,
  orderCurrency,
  OTHER_IDS,
  PAYMENT_PLAN_KIND,
  paymentMethodKindOf,
  servicePlanItemId,
  type BillingItemCatalogue,
  type OrderDocument,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { getBillingItemCatalogueQueryOptions } from '../../../api/catalogue';
import { useNavigate } from 'react-router';
import { OrderStepPage, type StepContext } from '../components/order-step-page';
import { EMPTY_CARD, type CardInput } from '../../../lib/gateway';
import { PaymentMethodFields, type MethodEntry } from '../components/payment-method-fields';
import { StepFrame } from '../components/step-frame';
import { countryOf, withMethod, withPlan } from '../lib/doc';
import { nextStep, stepPath } from '../lib/flow';
import { withCardToken } from '../lib/tokenize';
import { useDraft } from '../lib/use-draft';

const MONTHLY = PAYMENT_PLAN_KIND.MONTHLY;

function indexes(doc: OrderDocument) {
  return {
    plan: (doc.PaymentPlanInfo ?? []).findIndex((p) => p.type === MONTHLY),
    method: (doc.PaymentInstrumentInfo ?? []).findIndex((m) => m.type === MONTHLY),
    hardwareMethod: (doc.PaymentInstrumentInfo ?? []).findIndex((m) => m.type === PAYMENT_PLAN_KIND.HARDWARE),
  };
}

/** The plan's price in the price list (the service fee item's price in the currency), null when it has none. */
function listPriceOf(catalogue: BillingItemCatalogue | undefined, yearly: boolean): number | null {
  const id = servicePlanItemId(yearly);
  return catalogue?.billing_items.find((b) => b.billing_item_id === id)?.unit_price_cents ?? null;
}

const priceAsAmount = (cents: number | null) => (cents === null ? {} : { recurringAmount: centsToDecimal(cents) });

function ChargesStep({ orderId, doc, orderType, flow }: StepContext) {
  const navigate = useNavigate();
  const [draft, update] = useDraft(doc);
  // The amount starts from the plan's price list, not 0.00 (decision 149); an amount the rep entered stays.
  const catalogue = useQuery({
    ...getBillingItemCatalogueQueryOptions({ currency: orderCurrency(doc) }),
    meta: { silentError: true },
  });
  const planAt = indexes(doc).plan;
  const startAmount = draft?.PaymentPlanInfo?.[planAt]?.recurringAmount;
  const startYearly = Number(draft?.PaymentPlanInfo?.[planAt]?.paymentPlanId) === OTHER_IDS.YEARLY_PLAN_ID;
  const startPrice = listPriceOf(catalogue.data, startYearly);
  useEffect(() => {
    const amount = defaultRecurringAmount(startAmount, startPrice);
    if (amount !== null && planAt >= 0) update((d) => withPlan(d, planAt, { recurringAmount: amount }));
    // eslint-disable-next-line react-hooks/exhaustive-deps -- once per price: `update` is a new function every render
  }, [startPrice, planAt]);
  const pos = orderType === 'P';
  const { plan: pi, method: mi, hardwareMethod: hi } = indexes(doc);
  const [sameAsHardware, setSame] = useState(
    () => pos && paymentMethodKindOf(doc.PaymentInstrumentInfo?.[mi]?.paymentMethodTypeId) === null,
  );
  const [card, setCard] = useState<CardInput>(EMPTY_CARD);
  const [cardErrors, setCardErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  if (!draft) return null;
  const country = countryOf(draft);
  const plan = draft.PaymentPlanInfo?.[pi];
  const yearly = Number(plan?.paymentPlanId) === OTHER_IDS.YEARLY_PLAN_ID;
  const setPlan = (patch: Record<string, unknown>) => update((d) => withPlan(d, pi, patch));
  const setMethod = (next: MethodEntry) => update((d) => withMethod(d, mi, next));

  const submit = async () => {
    setBusy(true);
    setCardErrors({});
    try {
      let next: OrderDocument = draft;
      const chosen = next.PaymentPlanInfo?.[pi];
      if (chosen && chosen.paymentPlanId == null)
        next = {
          ...next,
          PaymentPlanInfo: next.PaymentPlanInfo!.map((p, i) =>
            i === pi ? { ...p, paymentPlanId: OTHER_IDS.MONTHLY_PLAN_ID, term: 1, interval: 1 } : p,
          ),
        };
      if (pos && sameAsHardware && hi >= 0) {
        const hw = next.PaymentInstrumentInfo![hi]!;
        next = {
          ...next,
          PaymentInstrumentInfo: next.PaymentInstrumentInfo!.map((m, i) =>
            i === mi ? { ...hw, type: MONTHLY, noofPOS: undefined } : m,
          ),
        };
      } else if (paymentMethodKindOf(next.PaymentInstrumentInfo?.[mi]?.paymentMethodTypeId) === 'card') {
        const tokenized = await withCardToken(
          next.PaymentInstrumentInfo![mi]!,
          card,
          next.PaymentInstrumentInfo![mi]!.nameOnAccount ?? '',
        );
        if ('errors' in tokenized) {
          setCardErrors(tokenized.errors);
          return;
        }
        next = {
          ...next,
          PaymentInstrumentInfo: next.PaymentInstrumentInfo!.map((m, i) => (i === mi ? tokenized.entry : m)),
        };
      }
      const outcome = await flow.save(next);
      if (outcome === 'saved' || outcome === 'kept') void navigate(stepPath(nextStep(orderType, 'charges')!, orderId));
    } finally {
      setBusy(false);
    }
  };

  const methodErrors: Record<string, string> = { ...cardErrors };
  for (const [k, v] of Object.entries(flow.errors))
    if (k.startsWith(`PaymentInstrumentInfo.${mi}.`)) methodErrors[k.split('.').at(-1)!] = v;

  return (
    <StepFrame
      orderId={orderId}
      step="charges"
      orderType={orderType}
      country={country}
      title="Recurring charges"
      reference={flow.record?.unifiedOrderId}
      pending={flow.pending}
      busy={busy}
      onSubmit={() => void submit()}
    >
      <Fieldset legend="Service plan">
        <Radio.Group
          label="Billing"
          value={yearly ? 'yearly' : 'monthly'}
          onChange={(v) =>
            setPlan({
              ...(v === 'yearly'
                ? { paymentPlanId: OTHER_IDS.YEARLY_PLAN_ID, term: 12, interval: 12 }
                : { paymentPlanId: OTHER_IDS.MONTHLY_PLAN_ID, term: 1, interval: 1 }),
              // Another plan, its price from the price list (the rep may change it).
              ...priceAsAmount(listPriceOf(catalogue.data, v === 'yearly')),
            })
          }
        >
          <Group mt="xs">
            <Radio value="monthly" label="Monthly plan" />
            <Radio value="yearly" label="Yearly plan" />
          </Group>
        </Radio.Group>
        <TextInput
          mt="sm"
          w={220}
          label={yearly ? 'Yearly amount' : 'Monthly amount'}
          description="An amount like 59.00"
          value={plan?.recurringAmount ?? ''}
          onChange={(x) => setPlan({ recurringAmount: x.currentTarget.value })}
          error={flow.errors[`PaymentPlanInfo.${pi}.recurringAmount`]}
        />
      </Fieldset>
      {pos && (
        <Checkbox
          label="Charge the service plan to the hardware payment method"
          checked={sameAsHardware}
          onChange={(x) => setSame(x.currentTarget.checked)}
        />
      )}
      {(!pos || !sameAsHardware) && (
        <PaymentMethodFields
          legend="Service plan payment method"
          country={country}
          entry={draft.PaymentInstrumentInfo?.[mi]}
          onChange={setMethod}
          card={card}
          onCard={setCard}
          errors={methodErrors}
        />
      )}
    </StepFrame>
  );
}

/** #/charges/{orderId}: Recurring charges — the monthly or yearly plan and how it is paid. */
export default function ChargesPage() {
  return <OrderStepPage>{(ctx) => <ChargesStep {...ctx} />}</OrderStepPage>;
}
