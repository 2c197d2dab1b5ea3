import { Fieldset, Group, NativeSelect, Radio, Text } from '@mantine/core';
import {
  centsToDecimal,
  orderTotals,
  OTHER_IDS,
  PAYMENT_PLAN_KIND,
  paymentMethodKindOf,
  type OrderDocument,
} from '@pos/domain';
import { notifications } from '@mantine/notifications';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { getOrderHoldQueryOptions } from '../../../api/orders';
import { OrderHoldAlert } from '../../../components/order-hold-alert';
import { useNavigate } from 'react-router';
import { OrderStepPage, type StepContext } from '../components/order-step-page';
import { EMPTY_CARD, type CardInput } from '../../../lib/gateway';
import { PaymentMethodFields, type MethodEntry } from '../components/payment-method-fields';
import { StepFrame } from '../components/step-frame';
import { countryOf, withMethod, withPlan } from '../lib/doc';
import { nextStep, stepPath } from '../lib/flow';
import { withCardToken } from '../lib/tokenize';
import { useDraft } from '../lib/use-draft';
import { formatCents } from '../../../lib/format';

/** The installment plan id we use for "not upfront" (the spec names only upfront = 1; decision 090). */
export const INSTALLMENT_PLAN_ID = 2;
const TERMS = [3, 6, 12, 24];

const HW = PAYMENT_PLAN_KIND.HARDWARE;

export function hardwareIndexes(doc: OrderDocument) {
  return {
    plan: (doc.PaymentPlanInfo ?? []).findIndex((p) => p.type === HW),
    method: (doc.PaymentInstrumentInfo ?? []).findIndex((m) => m.type === HW),
  };
}

function PaymentStep({ orderId, doc, orderType, flow }: StepContext) {
  const navigate = useNavigate();
  const [draft, update] = useDraft(doc);
  const [card, setCard] = useState<CardInput>(EMPTY_CARD);
  const [cardErrors, setCardErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const queryClient = useQueryClient();
  if (!draft) return null;
  const country = countryOf(draft);
  const { plan: pi, method: mi } = hardwareIndexes(draft);
  const plan = draft.PaymentPlanInfo?.[pi];
  const method = draft.PaymentInstrumentInfo?.[mi];
  const installments = plan != null && Number(plan.paymentPlanId) === INSTALLMENT_PLAN_ID;
  const totals = orderTotals(draft);

  const setPlan = (patch: Record<string, unknown>) => update((d) => withPlan(d, pi, patch));
  const setMethod = (next: MethodEntry) => update((d) => withMethod(d, mi, next));

  const submit = async () => {
    setBusy(true);
    setCardErrors({});
    try {
      let next = draft;
      const t = orderTotals(next);
      next = {
        ...next,
        PaymentPlanInfo: (next.PaymentPlanInfo ?? []).map((p, i) =>
          i !== pi
            ? p
            : installments
              ? {
                  ...p,
                  interval: 1,
                  initialPaymentAmount: '0.00',
                  recurringAmount: centsToDecimal(t.installments?.amountCents ?? 0),
                  planName: `Installments over ${p.term} months`,
                }
              : {
                  ...p,
                  paymentPlanId: OTHER_IDS.UPFRONT_PAYMENT_PLAN_ID,
                  term: 0,
                  interval: 0,
                  initialPaymentAmount: centsToDecimal(t.totalCents),
                  recurringAmount: '0.00',
                  planName: 'Paid upfront',
                },
        ),
      };
      if (paymentMethodKindOf(method?.paymentMethodTypeId) === 'card') {
        const tokenized = await withCardToken(next.PaymentInstrumentInfo![mi]!, card, method?.nameOnAccount ?? '');
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
      if (outcome === 'saved') {
        // The save placed the card hold (decision 151): a decline keeps the rep here to change the card.
        // If the hold cannot be read now, the step moves on; the summary shows it again.
        const hold = await queryClient
          .fetchQuery({ ...getOrderHoldQueryOptions(orderId), staleTime: 0 })
          .catch(() => null);
        if (hold && (hold.state === 'declined' || hold.state === 'pending')) {
          setCard(EMPTY_CARD);
          notifications.show({ color: 'red', title: 'The card was not authorized', message: hold.message });
          return;
        }
        if (hold?.state === 'authorized')
          notifications.show({ color: 'green', title: 'Card authorized', message: hold.message });
      }
      if (outcome === 'saved' || outcome === 'kept')
        void navigate(stepPath(nextStep(orderType, 'paymentPlanMethod')!, orderId));
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
      step="paymentPlanMethod"
      orderType={orderType}
      country={country}
      title="Payment (plan / method)"
      reference={flow.record?.unifiedOrderId}
      pending={flow.pending}
      busy={busy}
      onSubmit={() => void submit()}
    >
      <OrderHoldAlert orderId={orderId} canRetry />
      <Fieldset legend="Hardware payment plan">
        <Radio.Group
          label="How the merchant pays for the hardware"
          value={installments ? 'installments' : 'upfront'}
          onChange={(v) =>
            setPlan(
              v === 'installments'
                ? { paymentPlanId: INSTALLMENT_PLAN_ID, term: Number(plan?.term) > 1 ? plan?.term : 12, interval: 1 }
                : { paymentPlanId: OTHER_IDS.UPFRONT_PAYMENT_PLAN_ID, term: 0, interval: 0 },
            )
          }
        >
          <Group mt="xs">
            <Radio value="upfront" label="Upfront" />
            <Radio value="installments" label="Installments (5 % interest)" />
          </Group>
        </Radio.Group>
        {installments && (
          <NativeSelect
            label="Term"
            mt="sm"
            w={200}
            value={String(plan?.term ?? 12)}
            onChange={(x) => setPlan({ term: Number(x.currentTarget.value) })}
            data={TERMS.map((t) => ({ value: String(t), label: `${t} months` }))}
          />
        )}
        <Text mt="sm">
          {installments && totals.installments
            ? `${totals.installments.count} monthly installments of ${formatCents(totals.installments.amountCents, totals.currency)} (interest ${formatCents(totals.installments.interestCents, totals.currency)})`
            : `Paid upfront: ${formatCents(totals.totalCents, totals.currency)} before tax; with tax it is authorized on the card when you save`}
        </Text>
      </Fieldset>
      <PaymentMethodFields
        legend="Hardware payment method"
        country={country}
        entry={method}
        onChange={setMethod}
        card={card}
        onCard={setCard}
        errors={methodErrors}
      />
    </StepFrame>
  );
}

/** #/payment-plan-method/{orderId}: PAYMENT (PLAN / METHOD) — upfront or installments, and how the hardware is paid. */
export default function PaymentPlanMethodPage() {
  return <OrderStepPage>{(ctx) => <PaymentStep {...ctx} />}</OrderStepPage>;
}
