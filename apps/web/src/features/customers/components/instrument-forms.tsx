import { Alert, Button, Checkbox, Group, Stack, Text } from '@mantine/core';
import {
  bankInstrumentRequest,
  fieldsFromZodError,
  uploadAccept,
  type MerchantCountryCode,
  type PaymentInstrument,
  type PaymentInstrumentCreateRequest,
} from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { useGatewayConfig } from '../../../api/payment-gateway';
import { FilePicker, type PickedFile } from '../../../components/file-picker';
import {
  BankAccountFields,
  CardFields,
  EMPTY_BANK_ACCOUNT,
  type BankAccountInput,
} from '../../../components/payment-method-fields';
import { isApiError } from '../../../lib/api';
import { EMPTY_CARD, tokenizeCard, type CardInput } from '../../../lib/gateway';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import { fileFromBase64, useBanks, useUploadPaymentImage, type ImageUploadKind } from '../api/accounts-actions';
import { useAddInstrument } from '../api/accounts-payment';
import { notifyError } from '../lib/notify';

/*
 * The forms that add a payment instrument: a card (tokenized by the gateway from the browser) or a bank account
 * (with a check or ACH/CAD image). Used by /editpayment and #/payment/instruments (decisions 067, 115).
 */

export interface SaveProps {
  readonly customerId: number;
  readonly storeId: number | null;
  readonly onSaved: (instrument: PaymentInstrument) => void;
}

type Pending = { readonly body: PaymentInstrumentCreateRequest; readonly key: string } | null;

/**
 * The card form. The number, expiry and CVC stay in this form's state (cleared after a save) and go to the
 * gateway's tokenize URL only; our API gets the token.
 */
export function CardForm({ customerId, storeId, onSaved }: SaveProps) {
  const gateway = useGatewayConfig();
  const add = useAddInstrument(customerId);
  const keys = useIdempotencyKeys();
  const [card, setCard] = useState<CardInput>(EMPTY_CARD);
  const [makeDefault, setMakeDefault] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [tokenizing, setTokenizing] = useState(false);
  const [retry, setRetry] = useState<Pending>(null);

  function save(pending: NonNullable<Pending>) {
    add.mutate(
      { body: pending.body, idempotencyKey: pending.key },
      {
        onSuccess: (instrument) => {
          setRetry(null);
          setCard(EMPTY_CARD);
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
    const name = card.name.trim();
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
      token = await tokenizeCard(gateway.data.tokenize_url, { ...card, name });
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
    save({
      body: {
        kind: 'card',
        card_token: token.token,
        name_on_account: name,
        store_id: storeId,
        make_default: makeDefault,
      },
      key: keys.keyFor(`card:${token.token}`),
    });
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
        <CardFields value={card} onChange={(patch) => setCard((c) => ({ ...c, ...patch }))} errors={errors} />
        <Checkbox
          label="Make this the default payment method"
          checked={makeDefault}
          onChange={(e) => setMakeDefault(e.currentTarget.checked)}
        />
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
            <Button variant="light" onClick={() => save(retry)} loading={add.isPending}>
              Try saving again
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** Which error each field of the bank form shows (the request's field names). */
const BANK_ERROR_FIELD: Readonly<Record<keyof BankAccountInput, string>> = {
  name: 'name_on_account',
  bankId: 'bank_name',
  bankName: 'bank_name',
  routing: 'routing_number',
  institution: 'institution_number',
  account: 'account_number',
  accountType: 'account_type',
};

interface Upload {
  readonly file: PickedFile;
  readonly uploadId: string | null;
}

export function BankForm({
  customerId,
  storeId,
  country,
  onSaved,
}: SaveProps & { readonly country: MerchantCountryCode }) {
  const banks = useBanks(country);
  const add = useAddInstrument(customerId);
  const upload = useUploadPaymentImage();
  const keys = useIdempotencyKeys();
  const [draft, setDraft] = useState<BankAccountInput>(EMPTY_BANK_ACCOUNT);
  const [makeDefault, setMakeDefault] = useState(true);
  const [uploads, setUploads] = useState<Partial<Record<ImageUploadKind, Upload>>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const canada = country === 'CA';

  const change = (patch: Partial<BankAccountInput>) => {
    setDraft((d) => ({ ...d, ...patch }));
    const cleared = Object.keys(patch).map((k) => [BANK_ERROR_FIELD[k as keyof BankAccountInput], '']);
    setErrors((e) => ({ ...e, ...Object.fromEntries(cleared) }));
  };

  function pick(kind: ImageUploadKind, files: PickedFile[]) {
    setUploads((u) => {
      const next = { ...u };
      if (files[0]) next[kind] = { file: files[0], uploadId: null };
      else delete next[kind];
      return next;
    });
  }

  /** Upload what was picked and not yet uploaded; the ids are kept, so a second try does not upload again. */
  async function uploadImages(): Promise<Partial<Record<ImageUploadKind, string>>> {
    const ids: Partial<Record<ImageUploadKind, string>> = {};
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
      name_on_account: draft.name,
      routing_number: draft.routing,
      institution_number: canada ? draft.institution : undefined,
      account_number: draft.account,
      account_type: draft.accountType,
      bank_name: draft.bankName,
      store_id: storeId,
      make_default: makeDefault,
    };
    const found: Record<string, string> = {};
    const parsed = bankInstrumentRequest.safeParse(candidate);
    if (!parsed.success) Object.assign(found, fieldsFromZodError(parsed.error));
    if (canada && !draft.institution.trim()) found.institution_number = 'Enter the 3-digit institution number.';
    if (Object.values(found).some(Boolean)) {
      setErrors(found);
      return;
    }
    setErrors({});
    setBusy(true);
    let ids: Partial<Record<ImageUploadKind, string>>;
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
          setDraft(EMPTY_BANK_ACCOUNT);
          onSaved(instrument);
        },
        onError: (e) => {
          keys.settle(action, e);
          if (isApiError(e)) setErrors(e.fields);
          // The image was refused (not found, or already on a record): the next try uploads it again.
          if (isApiError(e) && e.fields.check_image_upload_id)
            setUploads((u) => {
              const next = { ...u };
              for (const kind of ['check', 'achcad'] as const) {
                const entry = next[kind];
                if (entry) next[kind] = { file: entry.file, uploadId: null };
              }
              return next;
            });
        },
      },
    );
  }

  return (
    <form onSubmit={(e) => void submit(e)} noValidate aria-label="Bank account">
      <Stack gap="sm" maw={520}>
        <BankAccountFields
          value={draft}
          onChange={change}
          country={country}
          errors={errors}
          banks={banks.data ?? []}
          banksLoading={banks.isPending}
        />
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
