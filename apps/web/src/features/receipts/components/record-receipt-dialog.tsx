import {
  Alert,
  Button,
  Checkbox,
  Group,
  Input,
  Modal,
  NativeSelect,
  Radio,
  Stack,
  Text,
  Textarea,
  TextInput,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  CASH_CHECK_FEE_METHODS,
  cashCheckFeeApplies,
  parseMoney,
  RECEIPT_METHOD_LABELS,
  RECEIPT_METHODS,
  receiptCreate,
  receiptDateWindow,
  uploadAccept,
  type CurrencyCode,
  type CustomerSearchRecord,
  type ReceiptMethod,
  type ReceiptPage,
  isMerchantSearchReady,
  MERCHANT_SEARCH_HINT,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { isApiError } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { currencyFilterOptions } from '../../../components/list';
import { formatCents, todayIso } from '../../../lib/format';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import { findCustomersQueryOptions, useRecordReceipt, useUploadCheckImage } from '../api/receipts';

const METHOD_OPTIONS = RECEIPT_METHODS.map((m) => ({ value: m, label: RECEIPT_METHOD_LABELS[m] }));

interface ChosenCustomer {
  readonly id: number;
  readonly legalName: string;
  readonly country: string;
  readonly currency: string;
  readonly stores: ReadonlyArray<{ id: number; name: string; currency: string; country: string }>;
}

function chosenFrom(rows: readonly CustomerSearchRecord[], customerId: number): ChosenCustomer | null {
  const mine = rows.filter((r) => r.customer_id === customerId);
  const first = mine[0];
  if (!first) return null;
  return {
    id: customerId,
    legalName: first.legal_name,
    country: first.country,
    currency: first.currency,
    stores: mine
      .filter((r) => r.store_id !== null)
      .map((r) => ({
        id: r.store_id!,
        name: r.doing_business_as ?? r.store_name ?? `Store ${r.store_id}`,
        currency: r.currency,
        country: r.country,
      })),
  };
}

type Errors = Partial<Record<string, string>>;

/**
 * "Record receipt": money received outside the gateway — the merchant (searched by name, DBA or id), the store, the
 * method, amount and currency, the day received, the check number or bank reference, the check image, a note, and
 * for a US customer paying cash or by check "Charge the cash/check fee" (decision 119). The image is uploaded
 * first (field checkimage), then the receipt is recorded with its upload id, under one Idempotency-Key.
 */
export function RecordReceiptDialog(props: {
  opened: boolean;
  onClose: () => void;
  onRecorded: (p: ReceiptPage) => void;
}) {
  const { opened, onClose, onRecorded } = props;
  const [search, setSearch] = useState('');
  const [customer, setCustomer] = useState<ChosenCustomer | null>(null);
  const [storeId, setStoreId] = useState('');
  const [method, setMethod] = useState<ReceiptMethod>('check');
  const [amount, setAmount] = useState('');
  const [currency, setCurrency] = useState<CurrencyCode>('USD');
  const [receivedOn, setReceivedOn] = useState(todayIso());
  const [reference, setReference] = useState('');
  const [note, setNote] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [uploaded, setUploaded] = useState<{ file: File; uploadId: string } | null>(null);
  const [chargeFee, setChargeFee] = useState(false);
  const [errors, setErrors] = useState<Errors>({});
  const keys = useIdempotencyKeys();
  const upload = useUploadCheckImage();
  const record = useRecordReceipt();
  const fileId = useId();

  const found = useQuery({
    ...findCustomersQueryOptions(search),
    enabled: customer === null && isMerchantSearchReady(search),
  });
  const customerIds = [...new Set((found.data ?? []).map((r) => r.customer_id))];

  const store = customer?.stores.find((s) => String(s.id) === storeId) ?? null;
  const country = store?.country ?? customer?.country ?? null;
  const feeApplies = customer !== null && cashCheckFeeApplies({ method, currency, country });

  function reset() {
    setSearch('');
    setCustomer(null);
    setStoreId('');
    setMethod('check');
    setAmount('');
    setCurrency('USD');
    setReceivedOn(todayIso());
    setReference('');
    setNote('');
    setFile(null);
    setUploaded(null);
    setChargeFee(false);
    setErrors({});
  }

  function close() {
    reset();
    onClose();
  }

  function choose(id: number) {
    const c = chosenFrom(found.data ?? [], id);
    if (!c) return;
    setCustomer(c);
    setStoreId(c.stores.length === 1 ? String(c.stores[0]!.id) : '');
    if (c.currency === 'USD' || c.currency === 'CAD') setCurrency(c.currency);
    setErrors((e) => ({ ...e, customer_id: undefined }));
  }

  async function submit(e: FormEvent) {
    e.preventDefault();
    const found: Errors = {};
    if (!customer) found.customer_id = 'Search for the merchant and choose one.';
    const money = parseMoney(amount, currency);
    if (!money || money.cents <= 0) found.amount_cents = 'Enter the amount received, e.g. 150.00.';
    const body = {
      customer_id: customer?.id ?? 0,
      store_id: storeId ? Number(storeId) : null,
      method,
      amount_cents: money?.cents ?? 0,
      currency,
      received_on: receivedOn,
      reference: reference.trim() || undefined,
      note: note.trim() || undefined,
      charge_fee: feeApplies && chargeFee,
    };
    const parsed = receiptCreate.safeParse(body);
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? '_');
        if (!(key in found)) found[key] = issue.message;
      }
    setErrors(found);
    if (Object.keys(found).length > 0) return;

    const action = 'record';
    // One flow of two calls (the image, then the receipt): awaited in turn, the dialog answering each.
    try {
      let uploadId: string | null = null;
      if (method === 'check' && file) {
        if (uploaded?.file === file) uploadId = uploaded.uploadId;
        else {
          try {
            const info = await upload.mutateAsync(file);
            uploadId = info.upload_id;
            setUploaded({ file, uploadId });
          } catch (error) {
            const said = isApiError(error) ? (error.fields.checkimage ?? error.message) : 'The file could not be sent.';
            setErrors({ checkimage: said });
            notifications.show({
              color: 'red',
              title: 'Check image refused',
              message: `${said} Choose another file (JPG, PNG, GIF or PDF) and record again.`,
              autoClose: 8000,
            });
            return;
          }
        }
      }
      const page = await record.mutateAsync({
        body: { ...body, upload_id: uploadId },
        idempotencyKey: keys.keyFor(action),
      });
      keys.settle(action);
      onRecorded(page);
      reset();
    } catch (error) {
      keys.settle(action, error);
      if (isApiError(error)) setErrors(error.fields);
      // The check image was refused (not found, or already on a receipt): the next try uploads it again.
      if (isApiError(error) && error.fields.upload_id) setUploaded(null);
      const { title, message } = describeError(error);
      notifications.show({ color: 'red', title, message, autoClose: 8000 });
    }
  }

  return (
    <Modal opened={opened} onClose={close} title="Record receipt" size="lg">
      <form onSubmit={(e) => void submit(e)} aria-label="Record receipt" noValidate>
        <Stack gap="sm">
          {customer ? (
            <Group justify="space-between" align="flex-end">
              <Text>
                <Text component="span" fw={700}>
                  Merchant:
                </Text>{' '}
                {customer.legalName} (customer {customer.id})
              </Text>
              <Button variant="subtle" size="xs" onClick={() => setCustomer(null)}>
                Change merchant
              </Button>
            </Group>
          ) : (
            <>
              <TextInput
                label="Merchant"
                description={`Name, DBA or customer id: ${MERCHANT_SEARCH_HINT}`}
                value={search}
                onChange={(e) => setSearch(e.currentTarget.value)}
                error={errors.customer_id}
                required
              />
              {found.isError && <Alert color="red">{describeError(found.error).message}</Alert>}
              {customerIds.length > 0 && (
                <Radio.Group label="Choose the merchant" onChange={(v) => choose(Number(v))}>
                  <Stack gap={4} mt={4}>
                    {customerIds.map((id) => {
                      const row = found.data!.find((r) => r.customer_id === id)!;
                      return (
                        <Radio
                          key={id}
                          value={String(id)}
                          label={`${row.legal_name} (customer ${id}, ${row.country})`}
                        />
                      );
                    })}
                  </Stack>
                </Radio.Group>
              )}
              {found.isSuccess && customerIds.length === 0 && (
                <Text size="sm" c="dimmed">
                  No merchant matches. Try another name or the customer id.
                </Text>
              )}
            </>
          )}
          {customer && customer.stores.length > 0 && (
            <NativeSelect
              label="Store"
              data={[
                { value: '', label: 'No particular store' },
                ...customer.stores.map((s) => ({ value: String(s.id), label: `${s.name} (store ${s.id})` })),
              ]}
              value={storeId}
              onChange={(e) => {
                setStoreId(e.currentTarget.value);
                const s = customer.stores.find((x) => String(x.id) === e.currentTarget.value);
                if (s && (s.currency === 'USD' || s.currency === 'CAD')) setCurrency(s.currency);
              }}
              error={errors.store_id}
            />
          )}
          <Group grow align="flex-start">
            <NativeSelect
              label="Method"
              data={METHOD_OPTIONS}
              value={method}
              onChange={(e) => setMethod(e.currentTarget.value as ReceiptMethod)}
              error={errors.method}
            />
            <TextInput
              label="Amount"
              inputMode="decimal"
              placeholder="150.00"
              value={amount}
              onChange={(e) => setAmount(e.currentTarget.value)}
              error={errors.amount_cents}
              required
            />
            <NativeSelect
              label="Currency"
              data={currencyFilterOptions(null)}
              value={currency}
              onChange={(e) => setCurrency(e.currentTarget.value as CurrencyCode)}
              error={errors.currency}
            />
          </Group>
          <Group grow align="flex-start">
            <TextInput
              label="Received on"
              type="date"
              value={receivedOn}
              min={receiptDateWindow(todayIso()).earliest}
              max={todayIso()}
              onChange={(e) => setReceivedOn(e.currentTarget.value)}
              error={errors.received_on}
              required
            />
            <TextInput
              label={method === 'check' ? 'Check number' : 'Reference'}
              description={method === 'cash' ? 'Optional' : method === 'check' ? undefined : 'The bank reference'}
              value={reference}
              onChange={(e) => setReference(e.currentTarget.value)}
              error={errors.reference}
              required={method !== 'cash' && method !== 'card'}
            />
          </Group>
          {method === 'check' && (
            <Input.Wrapper
              id={fileId}
              label="Check image"
              description="A photo or scan of the check: JPG, PNG, GIF or PDF, at most 5 MB (optional)"
              error={errors.checkimage ?? errors.upload_id}
            >
              <div>
                <input
                  id={fileId}
                  type="file"
                  accept={uploadAccept('checkImage')}
                  onChange={(e) => {
                    setFile(e.currentTarget.files?.[0] ?? null);
                    setErrors((x) => ({ ...x, checkimage: undefined, upload_id: undefined }));
                  }}
                />
              </div>
            </Input.Wrapper>
          )}
          {CASH_CHECK_FEE_METHODS.includes(method) && (
            <Checkbox
              label="Charge the cash/check fee"
              description={
                feeApplies
                  ? 'Raises a separate invoice for the cash/check payment fee (billing item 53).'
                  : 'Only for US customers paying in USD by cash or check.'
              }
              checked={feeApplies && chargeFee}
              disabled={!feeApplies}
              onChange={(e) => setChargeFee(e.currentTarget.checked)}
              error={errors.charge_fee}
            />
          )}
          <Textarea label="Note" value={note} onChange={(e) => setNote(e.currentTarget.value)} error={errors.note} />
          {amount && parseMoney(amount, currency) && (
            <Text size="sm" c="dimmed">
              Recording {formatCents(parseMoney(amount, currency)!.cents, currency)}
              {customer ? ` from ${customer.legalName}` : ''}.
            </Text>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={close}>
              Cancel
            </Button>
            <Button type="submit" loading={upload.isPending || record.isPending}>
              Record receipt
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
