import { Alert, Button, Checkbox, Group, Radio, Stack, Text, Title } from '@mantine/core';
import type { MerchantMethodReplaced, MerchantPaymentResult, MerchantPaymentView } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useRef, useState, type FormEvent } from 'react';
import { useParams } from 'react-router';
import { LinkProblem, linkProblemText } from '../../../components/link-problem';
import { Spinner } from '../../../components/spinner';
import { isApiError } from '../../../lib/api';
import { formatCents } from '../../../lib/format';
import { newIdempotencyKey } from '../../../lib/idempotency';
import { getMerchantPaymentQueryOptions, payThroughLink, replaceMethodThroughLink } from '../api/merchant-payments';
import { EMPTY_NEW_METHOD, NewMethodFields, newMethodRequest, submitErrors, type NewMethod } from './new-method-fields';
import { OwedTable, PaymentResultTable } from './owed-table';

/*
 * The merchant's page of a payment-update link (public, no sign-in; decision 155). Replacing the method on file and
 * paying what is owed are two separate choices: "Replace the card on file" stores a new card or bank account as the
 * method on file and charges nothing; "Pay $X now" charges what is owed, with the method on file or a new one (kept
 * on file if the merchant leaves "Keep it on file" ticked). With nothing owed only the replacement is offered. The
 * card number goes to the gateway from this page; our API gets its token.
 */

type Mode = 'choose' | 'replace' | 'pay';

/** One key per attempt: a retried submit (same form) is answered once; a changed form gets a new key. */
function useAttemptKey() {
  const key = useRef<string | null>(null);
  return {
    take: () => (key.current ??= newIdempotencyKey()),
    forget: () => {
      key.current = null;
    },
    /** After a failure: keep the key only when the outcome is unknown (5xx, no answer). */
    settle: (error: unknown) => {
      if (!(isApiError(error) && (error.status === 0 || error.status >= 500))) key.current = null;
    },
  };
}

function replaceLabel(v: MerchantPaymentView): string {
  if (v.current_method_kind === 'bank') return 'Replace the bank account on file';
  if (v.current_method_kind === 'card') return 'Replace the card on file';
  return 'Add a card or bank account';
}

export function MerchantPaymentScreen() {
  const tok = useParams().tok ?? '';
  const view = useQuery(getMerchantPaymentQueryOptions('payment_update', tok));
  const [mode, setMode] = useState<Mode>('choose');
  const [replaced, setReplaced] = useState<MerchantMethodReplaced | null>(null);
  const [paid, setPaid] = useState<{ result: MerchantPaymentResult; keptOnFile: boolean } | null>(null);

  const heading = (store: string) => `Update your payment method — ${store}`;
  // The replacement used the link up (nothing was owed): its page would now answer 410, so it is not read again.
  if (replaced?.link_used) {
    return (
      <Stack gap="md" maw={720}>
        <Title order={1} size="h2">
          Payment method replaced
        </Title>
        <Text>{replaced.method} is now your payment method. Nothing was charged.</Text>
      </Stack>
    );
  }
  if (paid) {
    return (
      <PaidScreen
        paid={paid}
        storeName={view.data?.store_name ?? ''}
        onTryAgain={() => {
          setPaid(null);
          setMode('pay');
          void view.refetch();
        }}
      />
    );
  }
  if (view.isPending) return <Spinner busy />;
  if (view.isError) {
    return (
      <LinkProblem heading="Your payment method" announce>
        {linkProblemText(view.error)}
      </LinkProblem>
    );
  }
  const v = view.data;
  const owes = v.total_owed_cents > 0;
  const amount = formatCents(v.total_owed_cents, v.currency);
  const showReplace = mode === 'replace' || !owes;

  return (
    <Stack gap="md" maw={720}>
      <Title order={1} size="h2">
        {heading(v.store_name)}
      </Title>
      {replaced && (
        <Alert color="green" title="Payment method replaced" role="status">
          {replaced.method} is now your payment method. Nothing was charged.
        </Alert>
      )}
      <Text>{v.current_method ? `On file: ${v.current_method}` : 'No payment method is on file.'}</Text>
      <OwedTable view={v} />
      {showReplace ? (
        <ReplaceForm
          view={v}
          tok={tok}
          title={replaceLabel(v)}
          onBack={owes ? () => setMode('choose') : undefined}
          onReplaced={(r) => {
            setReplaced(r);
            setMode('choose');
            if (!r.link_used) void view.refetch();
          }}
        />
      ) : mode === 'pay' ? (
        <PayForm
          view={v}
          tok={tok}
          onBack={() => setMode('choose')}
          onPaid={(result, keptOnFile) => setPaid({ result, keptOnFile })}
        />
      ) : (
        <Stack gap="sm" role="group" aria-label="What would you like to do?">
          <Title order={2} size="h4">
            What would you like to do?
          </Title>
          <Stack gap={4}>
            <Button variant="default" onClick={() => setMode('replace')} fullWidth maw={360}>
              {replaceLabel(v)}
            </Button>
            <Text size="sm" c="dimmed">
              Nothing is charged: the new method is used for your future payments.
            </Text>
          </Stack>
          <Stack gap={4}>
            <Button onClick={() => setMode('pay')} fullWidth maw={360}>
              {`Pay ${amount} now`}
            </Button>
            <Text size="sm" c="dimmed">
              {v.current_method
                ? `With ${v.current_method} or a new card or bank account.`
                : 'With a new card or bank account.'}
            </Text>
          </Stack>
        </Stack>
      )}
    </Stack>
  );
}

/** Replace the method on file: stored as the default, nothing charged. */
function ReplaceForm({
  view: v,
  tok,
  title,
  onBack,
  onReplaced,
}: {
  readonly view: MerchantPaymentView;
  readonly tok: string;
  readonly title: string;
  readonly onBack: (() => void) | undefined;
  readonly onReplaced: (result: MerchantMethodReplaced) => void;
}) {
  const [method, setMethod] = useState<NewMethod>(EMPTY_NEW_METHOD);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const key = useAttemptKey();

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      const body = await newMethodRequest(method, v, true);
      const result = await replaceMethodThroughLink(tok, body, key.take());
      key.forget();
      onReplaced(result);
    } catch (error) {
      setErrors(submitErrors(error));
      key.settle(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} onChange={key.forget} aria-label={title} noValidate>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {title}
        </Title>
        <Text size="sm">Nothing is charged now. We use the new card or bank account for your future payments.</Text>
        {errors._ && (
          <Alert color="red" role="alert">
            {errors._}
          </Alert>
        )}
        <NewMethodFields value={method} onChange={setMethod} currency={v.currency} errors={errors} />
        <Group gap="sm">
          <Button type="submit" loading={busy}>
            Save as my payment method
          </Button>
          {onBack && (
            <Button variant="subtle" onClick={onBack} disabled={busy}>
              Back
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** Pay what is owed, with the method on file or a new one (kept on file when ticked). */
function PayForm({
  view: v,
  tok,
  onBack,
  onPaid,
}: {
  readonly view: MerchantPaymentView;
  readonly tok: string;
  readonly onBack: () => void;
  readonly onPaid: (result: MerchantPaymentResult, keptOnFile: boolean) => void;
}) {
  const [source, setSource] = useState<'on_file' | 'new'>(v.current_method ? 'on_file' : 'new');
  const [method, setMethod] = useState<NewMethod>(EMPTY_NEW_METHOD);
  const [keep, setKeep] = useState(true);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const key = useAttemptKey();
  const amount = formatCents(v.total_owed_cents, v.currency);

  const submit = async (e: FormEvent) => {
    e.preventDefault();
    setBusy(true);
    setErrors({});
    try {
      const body = source === 'on_file' ? { kind: 'on_file' as const } : await newMethodRequest(method, v, keep);
      const result = await payThroughLink('payment_update', tok, body, key.take());
      key.forget();
      onPaid(result, source === 'new' && keep);
    } catch (error) {
      setErrors(submitErrors(error));
      key.settle(error);
    } finally {
      setBusy(false);
    }
  };

  return (
    <form onSubmit={(e) => void submit(e)} onChange={key.forget} aria-label={`Pay ${amount} now`} noValidate>
      <Stack gap="sm">
        <Title order={2} size="h4">
          {`Pay ${amount} now`}
        </Title>
        {errors._ && (
          <Alert color="red" role="alert">
            {errors._}
          </Alert>
        )}
        <Radio.Group
          label="Pay with"
          value={source}
          onChange={(value) => {
            key.forget();
            setSource(value === 'on_file' ? 'on_file' : 'new');
          }}
        >
          <Stack gap="xs" mt={4}>
            {v.current_method && <Radio value="on_file" label={`${v.current_method} (on file)`} />}
            <Radio value="new" label="A new card or bank account" />
          </Stack>
        </Radio.Group>
        {source === 'new' && (
          <>
            <NewMethodFields value={method} onChange={setMethod} currency={v.currency} errors={errors} />
            <Checkbox
              label="Keep it on file for future payments"
              checked={keep}
              onChange={(e) => setKeep(e.currentTarget.checked)}
            />
          </>
        )}
        <Group gap="sm">
          <Button type="submit" loading={busy}>
            {`Pay ${amount}`}
          </Button>
          <Button variant="subtle" onClick={onBack} disabled={busy}>
            Back
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** What the payment did: paid, declined or in progress per invoice; a try that took nothing may be made again. */
function PaidScreen({
  paid: { result, keptOnFile },
  storeName,
  onTryAgain,
}: {
  readonly paid: { result: MerchantPaymentResult; keptOnFile: boolean };
  readonly storeName: string;
  readonly onTryAgain: () => void;
}) {
  const failed = result.invoices.filter((i) => i.outcome !== 'paid');
  const money = (cents: number) => formatCents(cents, result.currency);
  return (
    <Stack gap="md" maw={720}>
      <Title order={1} size="h2">
        {result.paid_cents > 0 ? 'Thank you' : 'Your payment'}
      </Title>
      <Text>
        {storeName}:{' '}
        {result.paid_cents > 0 ? (
          <>
            paid now <strong>{money(result.paid_cents)}</strong> with {result.method}.
          </>
        ) : (
          `no payment went through with ${result.method}.`
        )}
      </Text>
      {keptOnFile && <Text>{result.method} is now your payment method.</Text>}
      {result.invoices.length > 0 && <PaymentResultTable result={result} currency={result.currency} />}
      {failed.length > 0 &&
        (result.link_used ? (
          <Alert color="yellow">Some invoices are not paid yet; our billing team will contact you.</Alert>
        ) : (
          <Alert color="yellow">
            <Stack gap="xs" align="flex-start">
              <Text size="sm">Nothing was taken this time: you can try again with this link.</Text>
              <Button variant="light" onClick={onTryAgain}>
                Try again
              </Button>
            </Stack>
          </Alert>
        ))}
    </Stack>
  );
}
