import { Button, Group, NativeSelect, SimpleGrid, Stack, Table, Text, TextInput } from '@mantine/core';
import {
  ALL_STORES_CUST_STORE_ID,
  CURRENCY_SYMBOLS,
  LICENSED_PLAN_KINDS,
  PAYMENT_PLAN_KIND_CODES,
  PAYMENT_PLAN_KIND_LABELS,
  PAYMENT_PLAN_KIND_TERMS,
  ZERO_AMOUNT_PLAN_KINDS,
  fieldsFromZodError,
  licenseExpiryUpdateRequest,
  paymentPlanCreateRequest,
  type CurrencyCode,
  type PaymentPlan,
  type PaymentPlanKindCode,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState, type ChangeEvent, type ReactNode } from 'react';
import { Link } from 'react-router';
import { getPermissionsQueryOptions } from '../../../api/permissions';
import { DataTable } from '../../../components/list/data-table';
import { ListPagination } from '../../../components/list/list-pagination';
import { isApiError } from '../../../lib/api';
import { useBillingItems } from '../api/accounts-billing';
import { useAddPlan, usePlans, useUpdateLicenseExpiry } from '../api/accounts-plans';
import { StatusBadge } from '../components/status-badge';
import { formatCents, formatDate } from '../../../lib/format';
import { notifySuccess } from '../lib/notify';
import type { StoreTabProps } from '../tab-props';
import { ActionDialog } from './ui/action-dialog';
import { fieldErrorOrClose } from './ui/field-error';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import { todayIso } from '../../../lib/format';
import { parseAmount } from './ui/money';
import { NoStore, TabFrame } from './ui/tab-frame';

const PAGE_SIZE = 25;

const COLUMNS = [
  'Plan',
  'Kind',
  <Table.Th key="status" scope="col" miw={120}>
    Status
  </Table.Th>,
  'Initial payment',
  'Recurring',
  'Term / interval',
  'Starts',
  'License expires',
  'Actions',
];

const COLLECT_PRIVILEGES = ['collect_payment'] as const;

function isLicensed(plan: PaymentPlan): boolean {
  return LICENSED_PLAN_KINDS.includes(plan.kind);
}

function termText(plan: { term: number; interval: number }): string {
  if (plan.term === 0 && plan.interval === 0) return '—';
  return `${plan.term} mo / every ${plan.interval} mo`;
}

type Dialog = { readonly kind: 'detail' | 'license'; readonly plan: PaymentPlan } | { readonly kind: 'add' } | null;

/**
 * Payment plans of the selected store: list and detail; with edit rights Add plan, Update license expiry
 * (monthly and yearly plans carry the store's license). Push license is one of the store's actions above
 * the tabs (one button for it on the page).
 */
export function PlansTab({ customerId, storeId, currency, canEdit }: StoreTabProps) {
  if (storeId === null) return <NoStore title="Plans" />;
  return <PlansOfStore key={storeId} customerId={customerId} storeId={storeId} currency={currency} canEdit={canEdit} />;
}

function PlansOfStore({
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
  const [page, setPage] = useState(1);
  const list = usePlans(customerId, { storeId, limit: PAGE_SIZE, offset: (page - 1) * PAGE_SIZE, sort: '-starts_on' });
  const [dialog, setDialog] = useState<Dialog>(null);
  const items = list.data?.items ?? [];
  // The collection page (issue 15) opens from a plan, for users with collect_payment.
  const mayCollect = useQuery({
    ...getPermissionsQueryOptions(COLLECT_PRIVILEGES),
    select: (flags) => flags.collect_payment === true,
  });

  return (
    <TabFrame
      title="Plans"
      isPending={list.isPending}
      error={list.error}
      onRetry={() => void list.refetch()}
      actions={
        canEdit && (
          <Button size="sm" onClick={() => setDialog({ kind: 'add' })}>
            Add plan
          </Button>
        )
      }
    >
      <DataTable
        caption={`Payment plans of store ${storeId}`}
        columns={COLUMNS}
        minWidth={980}
        rowCount={items.length}
        emptyText="This store has no payment plans."
      >
        {items.map((p) => (
          <Table.Tr key={p.id}>
            <Table.Th scope="row" fw={600}>
              {p.plan_name}
            </Table.Th>
            <Table.Td>{p.kind_label}</Table.Td>
            <Table.Td>
              <StatusBadge status={p.status} />
            </Table.Td>
            <Table.Td>{formatCents(p.initial_amount_cents, p.currency)}</Table.Td>
            <Table.Td>{formatCents(p.recurring_amount_cents, p.currency)}</Table.Td>
            <Table.Td>{termText(p)}</Table.Td>
            <Table.Td>{formatDate(p.starts_on)}</Table.Td>
            <Table.Td>{isLicensed(p) ? formatDate(p.license_expires_on) : '—'}</Table.Td>
            <Table.Td>
              <Group gap={6} wrap="nowrap">
                <Button
                  size="compact-sm"
                  variant="light"
                  aria-label={`Details of plan ${p.plan_name} (${p.id})`}
                  onClick={() => setDialog({ kind: 'detail', plan: p })}
                >
                  Details
                </Button>
                {mayCollect.data === true && p.status === 'active' && (
                  <Button
                    size="compact-sm"
                    variant="light"
                    component={Link}
                    to={`/customer/payment/${p.id}/collection`}
                    aria-label={`Collect past-due invoices of plan ${p.plan_name} (${p.id})`}
                  >
                    Collect
                  </Button>
                )}
                {canEdit && isLicensed(p) && p.status === 'active' && (
                  <Button
                    size="compact-sm"
                    variant="light"
                    aria-label={`Update license expiry of plan ${p.plan_name} (${p.id})`}
                    onClick={() => setDialog({ kind: 'license', plan: p })}
                  >
                    Update license expiry
                  </Button>
                )}
              </Group>
            </Table.Td>
          </Table.Tr>
        ))}
      </DataTable>
      <ListPagination
        hideSinglePage
        label="Plan pages"
        total={list.data?.total ?? 0}
        pageSize={PAGE_SIZE}
        page={page}
        onChange={setPage}
      />
      {dialog?.kind === 'detail' && (
        <PlanDetailDialog customerId={customerId} plan={dialog.plan} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'license' && (
        <LicenseExpiryDialog customerId={customerId} plan={dialog.plan} onClose={() => setDialog(null)} />
      )}
      {dialog?.kind === 'add' && (
        <AddPlanDialog customerId={customerId} storeId={storeId} currency={currency} onClose={() => setDialog(null)} />
      )}
    </TabFrame>
  );
}

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm">{children}</Text>
    </div>
  );
}

function PlanDetailDialog({
  customerId,
  plan,
  onClose,
}: {
  customerId: number;
  plan: PaymentPlan;
  onClose: () => void;
}) {
  const items = useBillingItems(customerId, {
    storeId: plan.store_id ?? ALL_STORES_CUST_STORE_ID,
    planId: plan.id,
    status: null,
    billingItemId: null,
    includePrevious: true,
    limit: 100,
    offset: 0,
  });
  const rows = items.data?.customer_billing_items ?? [];
  return (
    <ActionDialog
      opened
      title={`Plan ${plan.plan_name}`}
      confirmLabel="Close"
      closeOnly
      onConfirm={onClose}
      onClose={onClose}
    >
      <SimpleGrid cols={2} spacing="sm">
        <Field label="Kind">{plan.kind_label}</Field>
        <Field label="Status">{plan.status}</Field>
        <Field label="Order">{plan.order_id ?? '—'}</Field>
        <Field label="Initial payment">{formatCents(plan.initial_amount_cents, plan.currency)}</Field>
        <Field label="Recurring amount">{formatCents(plan.recurring_amount_cents, plan.currency)}</Field>
        <Field label="Term / interval">{termText(plan)}</Field>
        <Field label="Starts">{formatDate(plan.starts_on)}</Field>
        <Field label="License expires">{isLicensed(plan) ? formatDate(plan.license_expires_on) : 'No license'}</Field>
        <Field label="Next billing">{formatDate(plan.next_billing_on)}</Field>
      </SimpleGrid>
      <Table verticalSpacing={4} fz="sm" captionSide="top">
        <Table.Caption>Billing items of this plan</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Item</Table.Th>
            <Table.Th scope="col">Qty</Table.Th>
            <Table.Th scope="col">Amount</Table.Th>
            <Table.Th scope="col">Status</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {items.isPending && (
            <Table.Tr>
              <Table.Td colSpan={4}>Loading…</Table.Td>
            </Table.Tr>
          )}
          {!items.isPending && rows.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={4}>
                <Text c="dimmed" size="sm">
                  No billing items on this plan.
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {rows.map((r) => (
            <Table.Tr key={r.id}>
              <Table.Td>{r.name}</Table.Td>
              <Table.Td>{r.quantity}</Table.Td>
              <Table.Td>{formatCents(r.amount_cents, r.currency)}</Table.Td>
              <Table.Td>{r.status_label}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </ActionDialog>
  );
}

function LicenseExpiryDialog({
  customerId,
  plan,
  onClose,
}: {
  customerId: number;
  plan: PaymentPlan;
  onClose: () => void;
}) {
  const update = useUpdateLicenseExpiry(customerId);
  const [date, setDate] = useState(plan.license_expires_on ?? '');
  const [error, setError] = useState<string | null>(null);

  function confirm() {
    const parsed = licenseExpiryUpdateRequest.safeParse({ license_expires_on: date, version: plan.version });
    if (!parsed.success) {
      setError(fieldsFromZodError(parsed.error).license_expires_on ?? 'Enter a date.');
      return;
    }
    update.mutate(
      { planId: plan.id, body: parsed.data },
      {
        onSuccess: (saved) => {
          notifySuccess(`The license of ${saved.plan_name} now expires on ${formatDate(saved.license_expires_on)}.`);
          onClose();
        },
        onError: fieldErrorOrClose('license_expires_on', setError, onClose),
      },
    );
  }

  return (
    <ActionDialog
      opened
      title={`License expiry of ${plan.plan_name}`}
      message={`Currently ${formatDate(plan.license_expires_on)}. The store's license follows this plan.`}
      confirmLabel="Save license expiry"
      busy={update.isPending}
      onConfirm={confirm}
      onClose={onClose}
    >
      <TextInput
        type="date"
        label="License expires on"
        value={date}
        onChange={(e) => {
          setDate(e.currentTarget.value);
          setError(null);
        }}
        error={error}
        required
        data-autofocus
      />
    </ActionDialog>
  );
}

interface PlanDraft {
  kind: PaymentPlanKindCode;
  plan_name: string;
  initial: string;
  recurring: string;
  term: string;
  interval: string;
  starts_on: string;
  license_expires_on: string;
}

function draftFor(kind: PaymentPlanKindCode, previous?: PlanDraft): PlanDraft {
  const terms = PAYMENT_PLAN_KIND_TERMS[kind];
  return {
    kind,
    plan_name: previous?.plan_name ?? '',
    initial: previous?.initial ?? '',
    recurring: previous?.recurring ?? '',
    term: String(terms.term),
    interval: String(terms.interval),
    starts_on: previous?.starts_on ?? todayIso(),
    license_expires_on: previous?.license_expires_on ?? '',
  };
}

function wholeNumber(text: string): number | undefined {
  return /^\d{1,3}$/.test(text.trim()) ? Number(text.trim()) : undefined;
}

function AddPlanDialog({
  customerId,
  storeId,
  currency,
  onClose,
}: {
  customerId: number;
  storeId: number;
  currency: CurrencyCode;
  onClose: () => void;
}) {
  const add = useAddPlan(customerId);
  const keys = useIdempotencyKeys();
  const [draft, setDraft] = useState<PlanDraft>(() => draftFor('monthly'));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const zero = ZERO_AMOUNT_PLAN_KINDS.includes(draft.kind);
  const licensed = LICENSED_PLAN_KINDS.includes(draft.kind);

  const set = (key: keyof PlanDraft) => (e: ChangeEvent<HTMLInputElement | HTMLSelectElement>) => {
    const value = e.currentTarget.value;
    setDraft((d) => (key === 'kind' ? draftFor(value as PaymentPlanKindCode, d) : { ...d, [key]: value }));
    setErrors((er) => ({
      ...er,
      [key === 'initial' ? 'initial_amount_cents' : key === 'recurring' ? 'recurring_amount_cents' : key]: '',
    }));
  };

  function confirm() {
    const found: Record<string, string> = {};
    const initial = zero ? { ok: true as const, cents: 0 } : parseAmount(draft.initial, currency, { required: false });
    const recurring = zero
      ? { ok: true as const, cents: 0 }
      : parseAmount(draft.recurring, currency, { required: false });
    if (!initial.ok) found.initial_amount_cents = initial.message;
    if (!recurring.ok) found.recurring_amount_cents = recurring.message;
    const body = {
      kind: draft.kind,
      store_id: storeId,
      plan_name: draft.plan_name.trim() || undefined,
      initial_amount_cents: initial.ok ? initial.cents : 0,
      recurring_amount_cents: recurring.ok ? recurring.cents : 0,
      term: wholeNumber(draft.term),
      interval: wholeNumber(draft.interval),
      starts_on: draft.starts_on,
      license_expires_on: licensed && draft.license_expires_on ? draft.license_expires_on : undefined,
    };
    if (body.term === undefined) found.term = 'Enter the term in months (0–120).';
    if (body.interval === undefined) found.interval = 'Enter the interval in months (0–120).';
    const parsed = paymentPlanCreateRequest.safeParse(body);
    if (!parsed.success) Object.assign(found, { ...fieldsFromZodError(parsed.error), ...found });
    if (Object.values(found).some(Boolean)) {
      setErrors(found);
      return;
    }
    const action = 'add-plan';
    add.mutate(
      { body, idempotencyKey: keys.keyFor(action) },
      {
        onSuccess: (plan) => {
          keys.settle(action);
          notifySuccess(`${plan.kind_label} ${plan.plan_name} was added.`, 'Plan added');
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
      title="Add a payment plan"
      confirmLabel="Add plan"
      busy={add.isPending}
      onConfirm={confirm}
      onClose={onClose}
    >
      <NativeSelect
        label="Kind"
        data={PAYMENT_PLAN_KIND_CODES.map((k) => ({ value: k, label: PAYMENT_PLAN_KIND_LABELS[k] }))}
        value={draft.kind}
        onChange={set('kind')}
        error={errors.kind}
        data-autofocus
      />
      <TextInput
        label="Plan name"
        description="Leave empty for the kind's default name"
        value={draft.plan_name}
        onChange={set('plan_name')}
        error={errors.plan_name}
      />
      {!zero && (
        <Group grow align="flex-start">
          <TextInput
            label="Initial payment amount"
            leftSection={CURRENCY_SYMBOLS[currency]}
            leftSectionWidth={36}
            inputMode="decimal"
            value={draft.initial}
            onChange={set('initial')}
            error={errors.initial_amount_cents}
          />
          <TextInput
            label="Recurring amount"
            leftSection={CURRENCY_SYMBOLS[currency]}
            leftSectionWidth={36}
            inputMode="decimal"
            value={draft.recurring}
            onChange={set('recurring')}
            error={errors.recurring_amount_cents}
          />
        </Group>
      )}
      {!zero && (
        <Group grow align="flex-start">
          <TextInput
            label="Term (months)"
            inputMode="numeric"
            value={draft.term}
            onChange={set('term')}
            error={errors.term}
          />
          <TextInput
            label="Interval (months)"
            inputMode="numeric"
            value={draft.interval}
            onChange={set('interval')}
            error={errors.interval}
          />
        </Group>
      )}
      <Stack gap="xs">
        <TextInput
          type="date"
          label="Starts on"
          value={draft.starts_on}
          onChange={set('starts_on')}
          error={errors.starts_on}
          required
        />
        {licensed && (
          <TextInput
            type="date"
            label="License expires on"
            value={draft.license_expires_on}
            onChange={set('license_expires_on')}
            error={errors.license_expires_on}
          />
        )}
      </Stack>
      {errors._ && (
        <Text c="red" size="sm" role="alert">
          {errors._}
        </Text>
      )}
    </ActionDialog>
  );
}
