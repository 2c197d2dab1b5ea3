import {
  Alert,
  Button,
  Checkbox,
  Code,
  Group,
  NativeSelect,
  Paper,
  Radio,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import {
  bankInstrumentRequest,
  fieldsFromZodError,
  uploadAccept,
  type BankListItem,
  type MerchantCountryCode,
  type PaymentInstrument,
  type PaymentInstrumentCreateRequest,
} from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { FilePicker, type PickedFile } from '../../../components/file-picker';
import { isApiError } from '../../../lib/api';
import { fileFromBase64, useBanks, useUploadPaymentImage, type ImageUploadKind } from '../api/accounts-actions';
import { tokenizeCard, useAddInstrument, useGatewayConfig, useInstruments } from '../api/accounts-payment';
import { useTerminals } from '../api/accounts-terminals';
import { useSendPaymentUpdateLink } from '../api/actions';
import { formatDate } from '../lib/format';
import { notifyError, notifySuccess } from '../lib/notify';
import { EditPageFrame, type EditPageContext } from '../tabs/ui/edit-page-frame';
import { useIdempotencyKeys } from '../tabs/ui/idempotency';

/**
 * #/editpayment?customer=…&store=… (customer_details_edit): the payment methods on file, a new card (tokenized
 * by the payment gateway from the browser — our API gets the token, never the number) or bank account (with a
 * check or ACH/CAD image), and the merchant's payment-update link (decision 067).
 */
export default function EditPaymentPage() {
  return (
    <EditPageFrame
      title="Edit payment method"
      intro="Add a card or a bank account for the store, or send the merchant a link to do it themselves."
    >
      {(context) => (
        <EditPayment key={`${context.customer.customer_id}:${context.store?.store_id ?? 0}`} {...context} />
      )}
    </EditPageFrame>
  );
}

const BRAND_NAMES: Readonly<Record<string, string>> = {
  visa: 'Visa',
  mastercard: 'Mastercard',
  amex: 'American Express',
  discover: 'Discover',
};

/** 'Visa •••• 4242' / 'Chase •••• 6789': never more than the last four digits. */
export function maskedInstrument(instrument: PaymentInstrument): string {
  if (instrument.card) return `${BRAND_NAMES[instrument.card.brand] ?? 'Card'} •••• ${instrument.card.last4}`;
  if (instrument.bank) return `${instrument.bank.bank_name ?? 'Bank account'} •••• ${instrument.bank.account_last4}`;
  return 'Cash';
}

function EditPayment({ customer, store, country }: EditPageContext) {
  const customerId = customer.customer_id;
  const storeId = store?.store_id ?? null;
  const [method, setMethod] = useState<'card' | 'bank'>('card');
  const [saved, setSaved] = useState<PaymentInstrument | null>(null);
  const onSaved = (instrument: PaymentInstrument) => {
    setSaved(instrument);
    notifySuccess(
      `${maskedInstrument(instrument)} is saved${instrument.is_default ? ' as the default payment method' : ''}.`,
      'Payment method saved',
    );
  };

  return (
    <Stack gap="lg">
      <OnFile customerId={customerId} storeId={storeId} />
      {saved && (
        <Alert color="green" role="status" title="Saved">
          {maskedInstrument(saved)}
          {saved.card && `, expires ${String(saved.card.exp_month).padStart(2, '0')}/${saved.card.exp_year}`}
          {saved.is_default && ' — now the default payment method'}
        </Alert>
      )}
      <Paper withBorder p="md" component="section" aria-labelledby="new-method-title">
        <Stack gap="md">
          <Title order={2} size="h4" id="new-method-title">
            New payment method
          </Title>
          <Radio.Group
            label="Payment method"
            value={method}
            onChange={(v) => setMethod(v === 'bank' ? 'bank' : 'card')}
          >
            <Group mt={4}>
              <Radio value="card" label="Card" />
              <Radio value="bank" label="Bank account" />
            </Group>
          </Radio.Group>
          {method === 'card' ? (
            <CardForm customerId={customerId} storeId={storeId} onSaved={onSaved} />
          ) : (
            <BankForm customerId={customerId} storeId={storeId} country={country} onSaved={onSaved} />
          )}
        </Stack>
      </Paper>
      {storeId !== null && <SendLink customerId={customerId} storeId={storeId} />}
    </Stack>
  );
}

function OnFile({ customerId, storeId }: { customerId: number; storeId: number | null }) {
  const list = useInstruments(customerId, { storeId });
  const items = list.data?.items ?? [];
  return (
    <section aria-label="Payment methods on file">
      <Table striped verticalSpacing="xs" fz="sm" captionSide="top">
        <Table.Caption>Payment methods on file</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Method</Table.Th>
            <Table.Th scope="col">Name on account</Table.Th>
            <Table.Th scope="col">Expires / type</Table.Th>
            <Table.Th scope="col">Default</Table.Th>
            <Table.Th scope="col">Added</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {list.isPending && (
            <Table.Tr>
              <Table.Td colSpan={5}>Loading…</Table.Td>
            </Table.Tr>
          )}
          {!list.isPending && items.length === 0 && (
            <Table.Tr>
              <Table.Td colSpan={5}>
                <Text c="dimmed" size="sm">
                  No payment method on file.
                </Text>
              </Table.Td>
            </Table.Tr>
          )}
          {items.map((i) => (
            <Table.Tr key={i.id}>
              <Table.Th scope="row">{maskedInstrument(i)}</Table.Th>
              <Table.Td>{i.name_on_account ?? '—'}</Table.Td>
              <Table.Td>
                {i.card
                  ? `${String(i.card.exp_month).padStart(2, '0')}/${i.card.exp_year}${i.card.expired ? ' (expired)' : ''}`
                  : i.bank
                    ? (i.bank.account_type ?? '—')
                    : '—'}
              </Table.Td>
              <Table.Td>{i.is_default ? 'Default' : '—'}</Table.Td>
              <Table.Td>{formatDate(i.created_at)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </section>
  );
}

interface SaveProps {
  readonly customerId: number;
  readonly storeId: number | null;
  readonly onSaved: (instrument: PaymentInstrument) => void;
}

type Pending = { readonly body: PaymentInstrumentCreateRequest; readonly key: string } | null;

/**
 * The card form. Its card fields are uncontrolled (read once from the form on submit, cleared after a
 * save): the number, expiry and CVC go to the gateway's tokenize URL only; our API gets the token.
 */
function CardForm({ customerId, storeId, onSaved }: SaveProps) {
  const gateway = useGatewayConfig();
  const add = useAddInstrument(customerId);
  const keys = useIdempotencyKeys();
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [tokenizing, setTokenizing] = useState(false);
  const [retry, setRetry] = useState<Pending>(null);

  function save(pending: NonNullable<Pending>, form: HTMLFormElement | null) {
    add.mutate(
      { body: pending.body, idempotencyKey: pending.key },
      {
        onSuccess: (instrument) => {
          setRetry(null);
          form?.reset();
          onSaved(instrument);
        },
        onError: (e) => {
          // After a lost answer the same request (same token, same key) can be sent again; otherwise start over.
          setRetry(isApiError(e) && e.status > 0 && e.status < 500 ? null : pending);
          if (isApiError(e)) setErrors(e.fields);
        },
      },
    );
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const name = String(data.get('cc-name') ?? '').trim();
    if (!gateway.data?.available) {
      setErrors({
        _: 'No payment gateway is available to take cards right now. Use a bank account or send the merchant the payment-update link.',
      });
      return;
    }
    if (!name) {
      setErrors({ name_on_account: 'Enter the name on the card.' });
      return;
    }
    setErrors({});
    setRetry(null);
    setTokenizing(true);
    let token;
    try {
      token = await tokenizeCard(gateway.data.tokenize_url, {
        number: String(data.get('cc-number') ?? ''),
        exp_month: String(data.get('cc-exp-month') ?? ''),
        exp_year: String(data.get('cc-exp-year') ?? ''),
        cvc: String(data.get('cc-csc') ?? ''),
        name,
      });
    } catch (e) {
      setErrors(
        isApiError(e) && Object.keys(e.fields).length > 0
          ? e.fields
          : { _: e instanceof Error ? e.message : 'The card could not be checked.' },
      );
      if (!isApiError(e) || Object.keys(e.fields).length === 0) notifyError(e);
      return;
    } finally {
      setTokenizing(false);
    }
    const makeDefault = data.get('make-default') === 'on';
    save(
      {
        body: {
          kind: 'card',
          card_token: token.token,
          name_on_account: name,
          store_id: storeId,
          make_default: makeDefault,
        },
        key: keys.keyFor(`card:${token.token}`),
      },
      form,
    );
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Card" autoComplete="on">
      <Stack gap="sm" maw={520}>
        {gateway.data && !gateway.data.available && (
          <Alert color="orange" role="alert" title="Cards cannot be taken">
            No payment gateway is configured for cards. Use a bank account, or send the merchant the payment-update
            link.
          </Alert>
        )}
        <TextInput
          label="Name on card"
          name="cc-name"
          autoComplete="cc-name"
          error={errors.name_on_account ?? errors.name}
          required
        />
        <TextInput
          label="Card number"
          name="cc-number"
          autoComplete="cc-number"
          inputMode="numeric"
          error={errors.number}
          required
        />
        <Group grow align="flex-start">
          <TextInput
            label="Expiry month"
            name="cc-exp-month"
            autoComplete="cc-exp-month"
            inputMode="numeric"
            placeholder="MM"
            maxLength={2}
            error={errors.exp_month}
            required
          />
          <TextInput
            label="Expiry year"
            name="cc-exp-year"
            autoComplete="cc-exp-year"
            inputMode="numeric"
            placeholder="YYYY"
            maxLength={4}
            error={errors.exp_year}
            required
          />
          <TextInput
            label="Security code"
            name="cc-csc"
            autoComplete="cc-csc"
            inputMode="numeric"
            maxLength={4}
            error={errors.cvc}
            required
          />
        </Group>
        <Checkbox label="Make this the default payment method" name="make-default" defaultChecked />
        <Text size="xs" c="dimmed">
          The card goes straight to the payment gateway; this system keeps only the brand, the last four digits and the
          expiry.
        </Text>
        {(errors._ || errors.card_token) && (
          <Text c="red" size="sm" role="alert">
            {errors._ ?? errors.card_token}
          </Text>
        )}
        <Group>
          <Button type="submit" loading={tokenizing || add.isPending} disabled={gateway.isPending}>
            Save card
          </Button>
          {retry && (
            <Button variant="light" onClick={() => save(retry, null)} loading={add.isPending}>
              Try saving again
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

interface BankDraft {
  bank_id: string;
  bank_name: string;
  name_on_account: string;
  routing_number: string;
  institution_number: string;
  account_number: string;
  account_type: 'checking' | 'savings';
}

const EMPTY_BANK: BankDraft = {
  bank_id: '',
  bank_name: '',
  name_on_account: '',
  routing_number: '',
  institution_number: '',
  account_number: '',
  account_type: 'checking',
};

interface Upload {
  readonly file: PickedFile;
  readonly uploadId: number | null;
}

function BankForm({ customerId, storeId, country, onSaved }: SaveProps & { readonly country: MerchantCountryCode }) {
  const banks = useBanks(country);
  const add = useAddInstrument(customerId);
  const upload = useUploadPaymentImage();
  const keys = useIdempotencyKeys();
  const [draft, setDraft] = useState<BankDraft>(EMPTY_BANK);
  const [makeDefault, setMakeDefault] = useState(true);
  const [uploads, setUploads] = useState<Partial<Record<ImageUploadKind, Upload>>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const canada = country === 'CA';

  const set = (key: keyof BankDraft) => (value: string) => {
    setDraft((d) => ({ ...d, [key]: value }));
    setErrors((e) => ({ ...e, [key]: '' }));
  };

  function chooseBank(id: string) {
    const bank: BankListItem | undefined = banks.data?.find((b) => String(b.id) === id);
    setDraft((d) => ({
      ...d,
      bank_id: id,
      bank_name: bank?.name ?? d.bank_name,
      routing_number: !canada && bank?.routing_number ? bank.routing_number : d.routing_number,
      institution_number: canada && bank?.institution_number ? bank.institution_number : d.institution_number,
    }));
    setErrors((e) => ({ ...e, bank_name: '', routing_number: '', institution_number: '' }));
  }

  function pick(kind: ImageUploadKind, files: PickedFile[]) {
    setUploads((u) => {
      const next = { ...u };
      if (files[0]) next[kind] = { file: files[0], uploadId: null };
      else delete next[kind];
      return next;
    });
  }

  /** Upload what was picked and not yet uploaded; the ids are kept, so a second try does not upload again. */
  async function uploadImages(): Promise<Partial<Record<ImageUploadKind, number>>> {
    const ids: Partial<Record<ImageUploadKind, number>> = {};
    for (const kind of ['check', 'achcad'] as const) {
      const entry = uploads[kind];
      if (!entry) continue;
      let uploadId = entry.uploadId;
      if (uploadId === null) {
        const info = await upload.mutateAsync({ kind, file: fileFromBase64(entry.file) });
        uploadId = info.upload_id;
        setUploads((u) => (u[kind]?.file === entry.file ? { ...u, [kind]: { file: entry.file, uploadId } } : u));
      }
      ids[kind] = uploadId;
    }
    return ids;
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const candidate = {
      kind: 'bank' as const,
      name_on_account: draft.name_on_account,
      routing_number: draft.routing_number,
      institution_number: canada ? draft.institution_number : undefined,
      account_number: draft.account_number,
      account_type: draft.account_type,
      bank_name: draft.bank_name,
      store_id: storeId,
      make_default: makeDefault,
    };
    const found: Record<string, string> = {};
    const parsed = bankInstrumentRequest.safeParse(candidate);
    if (!parsed.success) Object.assign(found, fieldsFromZodError(parsed.error));
    if (canada && !draft.institution_number.trim()) found.institution_number = 'Enter the 3-digit institution number.';
    if (Object.values(found).some(Boolean)) {
      setErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    let ids: Partial<Record<ImageUploadKind, number>>;
    try {
      ids = await uploadImages();
    } catch (e) {
      notifyError(e);
      setErrors({
        _: 'The image could not be uploaded. Check the file and try again.',
        ...(isApiError(e) ? e.fields : {}),
      });
      setBusy(false);
      return;
    }
    setBusy(false);
    const body: PaymentInstrumentCreateRequest = { ...candidate, check_image_upload_id: ids.check ?? ids.achcad };
    const action = `bank:${JSON.stringify(body)}`;
    add.mutate(
      { body, idempotencyKey: keys.keyFor(action) },
      {
        onSuccess: (instrument) => {
          keys.settle(action);
          setDraft(EMPTY_BANK);
          onSaved(instrument);
        },
        onError: (e) => {
          keys.settle(action, e);
          if (isApiError(e)) setErrors(e.fields);
        },
      },
    );
  }

  const bankOptions = [
    { value: '', label: banks.isPending ? 'Loading banks…' : 'Choose a bank' },
    ...(banks.data ?? []).map((b) => ({ value: String(b.id), label: b.name })),
  ];
  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Bank account">
      <Stack gap="sm" maw={520}>
        <NativeSelect
          label="Bank"
          data={bankOptions}
          value={draft.bank_id}
          onChange={(e) => chooseBank(e.currentTarget.value)}
          error={errors.bank_name}
          required
        />
        <TextInput
          label="Name on account"
          value={draft.name_on_account}
          onChange={(e) => set('name_on_account')(e.currentTarget.value)}
          error={errors.name_on_account}
          required
          autoComplete="off"
        />
        <Group grow align="flex-start">
          <TextInput
            label={canada ? 'Transit number' : 'Routing number'}
            description={canada ? '5 digits' : '9-digit ABA number'}
            inputMode="numeric"
            value={draft.routing_number}
            onChange={(e) => set('routing_number')(e.currentTarget.value)}
            error={errors.routing_number}
            required
            autoComplete="off"
          />
          {canada && (
            <TextInput
              label="Institution number"
              description="3 digits"
              inputMode="numeric"
              value={draft.institution_number}
              onChange={(e) => set('institution_number')(e.currentTarget.value)}
              error={errors.institution_number}
              required
              autoComplete="off"
            />
          )}
        </Group>
        <TextInput
          label="Account number"
          description="4–17 digits; stored encrypted, shown only as its last four"
          inputMode="numeric"
          value={draft.account_number}
          onChange={(e) => set('account_number')(e.currentTarget.value)}
          error={errors.account_number}
          required
          autoComplete="off"
        />
        <Radio.Group
          label="Account type"
          value={draft.account_type}
          onChange={(v) => set('account_type')(v)}
          error={errors.account_type}
        >
          <Group mt={4}>
            <Radio value="checking" label="Checking" />
            <Radio value="savings" label="Savings" />
          </Group>
        </Radio.Group>
        <FilePicker
          label="Check image"
          description="A voided check (JPG, PNG, GIF or PDF, up to 5 MB)"
          accept={uploadAccept('checkImage')}
          onChange={(f) => pick('check', f)}
        />
        <FilePicker
          label="ACH/CAD image"
          description="The bank's account confirmation, if there is no check (JPG, PNG, GIF or PDF, up to 5 MB)"
          accept={uploadAccept('achCadImage')}
          onChange={(f) => pick('achcad', f)}
          error={errors.check_image_upload_id}
        />
        <Checkbox
          label="Make this the default payment method"
          checked={makeDefault}
          onChange={(e) => setMakeDefault(e.currentTarget.checked)}
        />
        {errors._ && (
          <Text c="red" size="sm" role="alert">
            {errors._}
          </Text>
        )}
        <Group>
          <Button type="submit" loading={busy || add.isPending}>
            Save bank account
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

function SendLink({ customerId, storeId }: { customerId: number; storeId: number }) {
  const terminals = useTerminals(customerId, { storeId, limit: 100, offset: 0, sort: 'elmer_id' });
  const live = (terminals.data?.items ?? []).filter((t) => t.status !== 'retired');
  const [chosen, setChosen] = useState('');
  const send = useSendPaymentUpdateLink();
  const elmerId = chosen || live[0]?.elmer_id || '';

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="send-link-title">
      <Stack gap="sm">
        <div>
          <Title order={2} size="h4" id="send-link-title">
            Send the merchant a payment-update link
          </Title>
          <Text size="sm" c="dimmed">
            E-mails the store&apos;s contact a link to enter the payment method themselves (valid 7 days; an earlier
            link stops working).
          </Text>
        </div>
        {terminals.isSuccess && live.length === 0 ? (
          <Text size="sm">The link is sent for a terminal of the store, and this store has no terminal in use.</Text>
        ) : (
          <Group align="flex-end">
            <NativeSelect
              label="Terminal"
              data={live.map((t) => ({ value: t.elmer_id, label: `${t.elmer_id} (serial ${t.serial_number})` }))}
              value={elmerId}
              onChange={(e) => setChosen(e.currentTarget.value)}
              w={280}
            />
            <Button
              variant="default"
              loading={send.isPending}
              disabled={!elmerId}
              onClick={() => send.mutate({ elmer_id: elmerId })}
            >
              Send payment-update link
            </Button>
          </Group>
        )}
        {send.isSuccess && (
          <Text role="status" size="sm">
            Queued as job <Code>{send.data.jobId}</Code>: the merchant receives the e-mail shortly.
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
