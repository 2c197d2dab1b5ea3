import { Button, Group, Modal, MultiSelect, NativeSelect, Stack, Text, TextInput } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  CUSTOMER_TYPE_LABELS,
  CUSTOMER_TYPES,
  fieldsFromZodError,
  PROMOTION_CODE_MESSAGE,
  PROMOTION_METHOD_LABELS,
  PROMOTION_METHODS,
  PROMOTION_TYPE_LABELS,
  PROMOTION_TYPES,
  promotionCreateRequest,
  type PromotionCreateRequest,
  type PromotionRecord,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { getBillingItemCatalogueQueryOptions } from '../../../api/catalogue';
import { isApiError, isVersionConflict } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { useSavePromotion } from '../api/promotions';

/** The form as typed (strings), turned into the contract's request on save. */
interface PromotionForm {
  code: string;
  name: string;
  type: string;
  method: string;
  amount: string;
  percent: string;
  customerType: string;
  currency: string;
  billingItemIds: string[];
  startsOn: string;
  expiresOn: string;
  usageLimit: string;
}

const EMPTY: PromotionForm = {
  code: '',
  name: '',
  type: 'H',
  method: 'A',
  amount: '',
  percent: '',
  customerType: 'A',
  currency: 'USD',
  billingItemIds: [],
  startsOn: '',
  expiresOn: '',
  usageLimit: '',
};

function formOf(p: PromotionRecord | null): PromotionForm {
  if (!p) return EMPTY;
  return {
    code: p.code,
    name: p.name,
    type: p.type,
    method: p.method,
    amount: p.amount_cents === null ? '' : (p.amount_cents / 100).toFixed(2),
    percent: p.percent === null ? '' : String(p.percent),
    customerType: p.customer_type,
    currency: p.currency,
    billingItemIds: p.billing_items.map((b) => String(b.billing_item_id)),
    startsOn: p.starts_on ?? '',
    expiresOn: p.expires_on ?? '',
    usageLimit: p.usage_limit === null ? '' : String(p.usage_limit),
  };
}

const AMOUNT = /^\d{1,7}(\.\d{1,2})?$/;
const NUMBER = /^\d+(\.\d+)?$/;

/** The form → the request, or the fields to correct (the domain's rules, plus what only the text can tell). */
function toRequest(f: PromotionForm): { body: PromotionCreateRequest } | { errors: Record<string, string> } {
  const errors: Record<string, string> = {};
  if (f.method === 'A' && f.amount.trim() !== '' && !AMOUNT.test(f.amount.trim()))
    errors.amount_cents = 'Enter an amount such as 25 or 25.50.';
  if (f.method === 'P' && f.percent.trim() !== '' && !NUMBER.test(f.percent.trim()))
    errors.percent = 'Enter a percentage from 0 to 100.';
  if (f.usageLimit.trim() !== '' && !/^\d+$/.test(f.usageLimit.trim()))
    errors.usage_limit = 'Enter a whole number of orders, or leave it empty for no limit.';
  const body: PromotionCreateRequest = {
    code: f.code,
    name: f.name,
    type: f.type as PromotionCreateRequest['type'],
    method: f.method as PromotionCreateRequest['method'],
    amount_cents: f.method === 'A' && f.amount.trim() !== '' ? Math.round(Number(f.amount) * 100) : null,
    percent: f.method === 'P' && f.percent.trim() !== '' ? Number(f.percent) : null,
    customer_type: f.customerType as PromotionCreateRequest['customer_type'],
    currency: f.currency as PromotionCreateRequest['currency'],
    billing_item_ids: f.billingItemIds.map(Number),
    starts_on: f.startsOn || null,
    expires_on: f.expiresOn || null,
    usage_limit: f.usageLimit.trim() === '' ? null : Number(f.usageLimit),
  };
  const parsed = promotionCreateRequest.safeParse(body);
  if (!parsed.success) Object.assign(errors, fieldsFromZodError(parsed.error), errors);
  return Object.keys(errors).length > 0 ? { errors } : { body };
}

/** Create (promotion null) or edit one promotion; the server checks everything again. */
export function PromotionDialog(props: {
  readonly opened: boolean;
  readonly promotion: PromotionRecord | null;
  readonly onClose: () => void;
}) {
  const { opened, promotion, onClose } = props;
  const [form, setForm] = useState<PromotionForm>(() => formOf(promotion));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const items = useQuery({ ...getBillingItemCatalogueQueryOptions({ currency: 'USD' }), enabled: opened });
  const itemOptions = (items.data?.billing_items ?? []).map((b) => ({
    value: String(b.billing_item_id),
    label: `${b.billing_item_id} — ${b.name}`,
  }));
  // An item of the promotion that is no longer active still shows.
  for (const b of promotion?.billing_items ?? [])
    if (!itemOptions.some((o) => o.value === String(b.billing_item_id)))
      itemOptions.push({ value: String(b.billing_item_id), label: `${b.billing_item_id} — ${b.name}` });

  const save = useSavePromotion();
  const set =
    <K extends keyof PromotionForm>(key: K) =>
    (value: PromotionForm[K]) =>
      setForm((f) => ({ ...f, [key]: value }));

  function submit(e: FormEvent) {
    e.preventDefault();
    const result = toRequest(form);
    if ('errors' in result) {
      setErrors(result.errors);
      return;
    }
    setErrors({});
    save.mutate(
      { body: result.body, promotion },
      {
        onSuccess: (saved) => {
          notifications.show({
            color: 'green',
            title: promotion ? 'Promotion saved' : 'Promotion created',
            message: `${saved.code} (${saved.currency}) is saved.`,
          });
          onClose();
        },
        onError: (error) => {
          if (isApiError(error) && Object.keys(error.fields).length > 0) setErrors({ ...error.fields });
          const { title, message } = describeError(error);
          notifications.show({
            color: 'red',
            title: isVersionConflict(error) ? 'Changed by someone else' : title,
            message: isVersionConflict(error)
              ? `${message} Close this dialog; the list shows the promotion as it is now — open it again to edit.`
              : `${message} Correct the marked fields and save again.`,
            autoClose: 10_000,
          });
        },
      },
    );
  }

  return (
    <Modal
      opened={opened}
      onClose={onClose}
      title={promotion ? `Edit promotion ${promotion.code}` : 'New promotion'}
      size="lg"
    >
      <form onSubmit={submit} aria-label={promotion ? 'Edit promotion' : 'New promotion'} noValidate>
        <Stack gap="sm">
          <Group grow align="flex-start">
            <TextInput
              label="Code"
              description="Letters, digits, - or _"
              required
              value={form.code}
              onChange={(e) => set('code')(e.currentTarget.value)}
              error={errors.code}
              title={PROMOTION_CODE_MESSAGE}
            />
            <TextInput
              label="Name"
              required
              value={form.name}
              onChange={(e) => set('name')(e.currentTarget.value)}
              error={errors.name}
            />
          </Group>
          <Group grow align="flex-start">
            <NativeSelect
              label="Type"
              data={PROMOTION_TYPES.map((t) => ({ value: t, label: `${t} — ${PROMOTION_TYPE_LABELS[t]}` }))}
              value={form.type}
              onChange={(e) => set('type')(e.currentTarget.value)}
              error={errors.type}
            />
            <NativeSelect
              label="Method"
              data={PROMOTION_METHODS.map((m) => ({ value: m, label: `${m} — ${PROMOTION_METHOD_LABELS[m]}` }))}
              value={form.method}
              onChange={(e) => set('method')(e.currentTarget.value)}
              error={errors.method}
            />
            {form.method === 'A' ? (
              <TextInput
                label="Amount"
                description="Such as 25.00"
                inputMode="decimal"
                value={form.amount}
                onChange={(e) => set('amount')(e.currentTarget.value)}
                error={errors.amount_cents}
              />
            ) : (
              <TextInput
                label="Percent"
                description="0 to 100"
                inputMode="decimal"
                value={form.percent}
                onChange={(e) => set('percent')(e.currentTarget.value)}
                error={errors.percent}
              />
            )}
          </Group>
          <Group grow align="flex-start">
            <NativeSelect
              label="Customer type"
              data={CUSTOMER_TYPES.map((c) => ({ value: c, label: `${c} — ${CUSTOMER_TYPE_LABELS[c]}` }))}
              value={form.customerType}
              onChange={(e) => set('customerType')(e.currentTarget.value)}
              error={errors.customer_type}
            />
            <NativeSelect
              label="Currency"
              data={['USD', 'CAD']}
              value={form.currency}
              onChange={(e) => set('currency')(e.currentTarget.value)}
              error={errors.currency}
            />
            <TextInput
              label="Usage limit"
              description="Orders; empty: no limit"
              inputMode="numeric"
              value={form.usageLimit}
              onChange={(e) => set('usageLimit')(e.currentTarget.value)}
              error={errors.usage_limit}
            />
          </Group>
          <MultiSelect
            label="Billing items"
            description="The billing items the promotion applies to"
            data={itemOptions}
            value={form.billingItemIds}
            onChange={set('billingItemIds')}
            searchable
            clearable
            error={errors.billing_item_ids}
            nothingFoundMessage={items.isPending ? 'Loading…' : 'No billing item matches'}
          />
          <Group grow align="flex-start">
            <TextInput
              label="Starts on"
              type="date"
              value={form.startsOn}
              onChange={(e) => set('startsOn')(e.currentTarget.value)}
              error={errors.starts_on}
            />
            <TextInput
              label="Expires on"
              type="date"
              value={form.expiresOn}
              onChange={(e) => set('expiresOn')(e.currentTarget.value)}
              error={errors.expires_on}
            />
          </Group>
          {promotion && (
            <Text size="sm" c="dimmed">
              Used by {promotion.usage_count} {promotion.usage_count === 1 ? 'order' : 'orders'} so far.
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={save.isPending}>
              {promotion ? 'Save promotion' : 'Create promotion'}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
