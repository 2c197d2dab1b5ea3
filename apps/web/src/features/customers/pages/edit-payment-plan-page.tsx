import { Alert, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import {
  CURRENCY_SYMBOLS,
  fieldsFromZodError,
  paymentPlanUpdateRequest,
  type CurrencyCode,
  type PaymentPlan,
  type PaymentPlanUpdateRequest,
} from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../../../lib/api';
import { usePlans, useUpdatePlan } from '../api/accounts-plans';
import { formatCents, formatDate } from '../../../lib/format';
import { notifySuccess } from '../lib/notify';
import { EditPageFrame, type EditPageContext } from '../tabs/ui/edit-page-frame';
import { centsToInput, parseAmount } from '../tabs/ui/money';

/**
 * #/editpaymentplan?customer=…&store=… (customer_details_edit): the two entries of spec §3 PaymentPlanInfo —
 * the 'hardware sale plan' and the 'monthly plan' (the store's service plan, monthly or yearly) — each with
 * initial payment amount, recurring amount, term and interval (+ plan name for hardware). Each entry saves
 * on its own with the plan's version; a stale version (409) says so and shows the current plan.
 */
export default function EditPaymentPlanPage() {
  return (
    <EditPageFrame
      title="Edit payment plan"
      intro="The store's hardware sale plan and its monthly plan: amounts, term and interval."
    >
      {(context) => (
        <EditPaymentPlans key={`${context.customer.customer_id}:${context.store?.store_id ?? 0}`} {...context} />
      )}
    </EditPageFrame>
  );
}

/**
 * The §3 entries: which of the store's plans fills each — of its kinds, not canceled (the server refuses to
 * change a canceled plan), an active one first, then the newest. A completed installment plan still shows.
 */
export function planEntries(plans: readonly PaymentPlan[]): {
  hardware: PaymentPlan | null;
  monthly: PaymentPlan | null;
} {
  const pick = (kinds: readonly string[]) =>
    plans
      .filter((p) => kinds.includes(p.kind) && p.status !== 'canceled')
      .sort(
        (a, b) =>
          Number(b.status === 'active') - Number(a.status === 'active') ||
          b.starts_on.localeCompare(a.starts_on) ||
          b.id - a.id,
      )[0] ?? null;
  return { hardware: pick(['hardware_sale']), monthly: pick(['monthly', 'yearly']) };
}

function EditPaymentPlans({ customer, store }: EditPageContext) {
  const customerId = customer.customer_id;
  const plans = usePlans(customerId, { storeId: store?.store_id ?? null, limit: 100, offset: 0 }, store !== null);
  if (store === null) return <Text>This customer has no store, so it has no payment plans.</Text>;
  if (plans.isPending) {
    return (
      <Text c="dimmed" role="status">
        Loading the plans…
      </Text>
    );
  }
  if (plans.isError) {
    return (
      <Alert color="red" role="alert" title="The plans could not be loaded">
        <Button size="compact-sm" variant="light" color="red" onClick={() => void plans.refetch()}>
          Try again
        </Button>
      </Alert>
    );
  }
  const { hardware, monthly } = planEntries(plans.data.items);
  return (
    <Stack gap="lg">
      <PlanEntry
        title="Hardware sale plan"
        customerId={customerId}
        plan={hardware}
        withName
        key={hardware ? `${hardware.id}:${hardware.version}` : 'none-h'}
      />
      <PlanEntry
        title="Monthly plan"
        customerId={customerId}
        plan={monthly}
        key={monthly ? `${monthly.id}:${monthly.version}` : 'none-m'}
      />
    </Stack>
  );
}

interface PlanDraft {
  plan_name: string;
  initial: string;
  recurring: string;
  term: string;
  interval: string;
}

function draftOf(plan: PaymentPlan): PlanDraft {
  return {
    plan_name: plan.plan_name,
    initial: centsToInput(plan.initial_amount_cents),
    recurring: centsToInput(plan.recurring_amount_cents),
    term: String(plan.term),
    interval: String(plan.interval),
  };
}

function months(text: string): number | null {
  return /^\d{1,3}$/.test(text.trim()) ? Number(text.trim()) : null;
}

/** The body of PUT …/customerpaymentplans/{planId}: only what changed, and the version; null fields mean errors. */
export function planChanges(
  plan: PaymentPlan,
  draft: PlanDraft,
  currency: CurrencyCode,
  withName: boolean,
): { ok: true; body: PaymentPlanUpdateRequest | null } | { ok: false; fields: Record<string, string> } {
  const fields: Record<string, string> = {};
  const initial = parseAmount(draft.initial, currency);
  const recurring = parseAmount(draft.recurring, currency);
  const term = months(draft.term);
  const interval = months(draft.interval);
  if (!initial.ok) fields.initial_amount_cents = initial.message;
  if (!recurring.ok) fields.recurring_amount_cents = recurring.message;
  if (term === null) fields.term = 'Enter the term in whole months (0–120).';
  if (interval === null) fields.interval = 'Enter the interval in whole months (0–120).';
  if (Object.keys(fields).length > 0 || !initial.ok || !recurring.ok || term === null || interval === null)
    return { ok: false, fields };

  const body: PaymentPlanUpdateRequest = { version: plan.version };
  if (withName && draft.plan_name.trim() !== plan.plan_name) body.plan_name = draft.plan_name.trim();
  if (initial.cents !== plan.initial_amount_cents) body.initial_amount_cents = initial.cents;
  if (recurring.cents !== plan.recurring_amount_cents) body.recurring_amount_cents = recurring.cents;
  if (term !== plan.term) body.term = term;
  if (interval !== plan.interval) body.interval = interval;
  if (Object.keys(body).length === 1) return { ok: true, body: null };
  const parsed = paymentPlanUpdateRequest.safeParse(body);
  return parsed.success ? { ok: true, body } : { ok: false, fields: fieldsFromZodError(parsed.error) };
}

interface PlanEntryProps {
  readonly title: string;
  readonly customerId: number;
  readonly plan: PaymentPlan | null;
  readonly withName?: boolean;
}

function PlanEntry({ title, customerId, plan, withName = false }: PlanEntryProps) {
  const update = useUpdatePlan(customerId);
  const [draft, setDraft] = useState<PlanDraft | null>(plan ? draftOf(plan) : null);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [unchanged, setUnchanged] = useState(false);
  const headingId = `${title.replace(/\W+/g, '-').toLowerCase()}-title`;

  if (!plan || !draft) {
    return (
      <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
        <Title order={2} size="h4" id={headingId}>
          {title}
        </Title>
        <Text size="sm" c="dimmed">
          This store has no {title.toLowerCase()} (or only a canceled one). Add one in the customer&apos;s Plans tab.
        </Text>
      </Paper>
    );
  }
  const currency = plan.currency;
  const symbol = CURRENCY_SYMBOLS[currency];
  const set = (key: keyof PlanDraft) => (value: string) => {
    setDraft((d) => (d ? { ...d, [key]: value } : d));
    setErrors((e) => ({
      ...e,
      [key === 'initial' ? 'initial_amount_cents' : key === 'recurring' ? 'recurring_amount_cents' : key]: '',
    }));
    setUnchanged(false);
  };

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!plan || !draft) return;
    const checked = planChanges(plan, draft, currency, withName);
    if (!checked.ok) {
      setErrors(checked.fields);
      return;
    }
    if (checked.body === null) {
      setUnchanged(true);
      return;
    }
    update.mutate(
      { planId: plan.id, body: checked.body },
      {
        onSuccess: (saved) => notifySuccess(`${title} ${saved.plan_name} is saved.`),
        onError: (e) => {
          if (isApiError(e)) setErrors(e.fields);
        },
      },
    );
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby={headingId}>
      <form onSubmit={submit} noValidate aria-labelledby={headingId}>
        <Stack gap="sm">
          <div>
            <Title order={2} size="h4" id={headingId}>
              {title}
            </Title>
            <Text size="sm" c="dimmed">
              {plan.kind_label} {plan.id} ({plan.status}) · started {formatDate(plan.starts_on)} · now{' '}
              {formatCents(plan.initial_amount_cents, currency)} then{' '}
              {formatCents(plan.recurring_amount_cents, currency)}
            </Text>
          </div>
          {withName && (
            <TextInput
              label="Plan name"
              value={draft.plan_name}
              onChange={(e) => set('plan_name')(e.currentTarget.value)}
              error={errors.plan_name}
              required
            />
          )}
          <Group grow align="flex-start">
            <TextInput
              label="Initial payment amount"
              leftSection={symbol}
              leftSectionWidth={36}
              inputMode="decimal"
              value={draft.initial}
              onChange={(e) => set('initial')(e.currentTarget.value)}
              error={errors.initial_amount_cents}
            />
            <TextInput
              label="Recurring amount"
              leftSection={symbol}
              leftSectionWidth={36}
              inputMode="decimal"
              value={draft.recurring}
              onChange={(e) => set('recurring')(e.currentTarget.value)}
              error={errors.recurring_amount_cents}
            />
          </Group>
          <Group grow align="flex-start">
            <TextInput
              label="Term (months)"
              inputMode="numeric"
              value={draft.term}
              onChange={(e) => set('term')(e.currentTarget.value)}
              error={errors.term}
            />
            <TextInput
              label="Interval (months)"
              inputMode="numeric"
              value={draft.interval}
              onChange={(e) => set('interval')(e.currentTarget.value)}
              error={errors.interval}
            />
          </Group>
          {(errors._ || unchanged) && (
            <Text size="sm" c={errors._ ? 'red' : 'dimmed'} role={errors._ ? 'alert' : 'status'}>
              {errors._ ?? 'Nothing changed.'}
            </Text>
          )}
          <Group>
            <Button type="submit" loading={update.isPending}>
              Save {title.toLowerCase()}
            </Button>
          </Group>
        </Stack>
      </form>
    </Paper>
  );
}
