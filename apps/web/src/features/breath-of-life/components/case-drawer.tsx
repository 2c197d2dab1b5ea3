import {
  Alert,
  Badge,
  Button,
  Drawer,
  Group,
  NativeSelect,
  Stack,
  Table,
  Text,
  Textarea,
  TextInput,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  WINBACK_ACTIVITY_LABELS,
  WINBACK_CLOSED_STATUSES,
  WINBACK_REASON_LABELS,
  WINBACK_STATUS_LABELS,
  type WinbackCase,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState, type FormEvent } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { isApiError } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { countryName, formatCents, formatDate, formatDateTime } from '../../../lib/format';
import { useIdempotencyKeys } from '../../../lib/idempotency';
import {
  useLogWinbackActivity,
  useMakeWinbackOffer,
  useReactivateWinback,
  useRecordWinbackOutcome,
  winbackCaseQueryOptions,
} from '../api/breath-of-life';

type Errors = Partial<Record<'text' | 'promotion_id' | 'reason', string>>;

function fieldsOf(error: unknown): Errors {
  return isApiError(error) ? (error.fields as Errors) : {};
}

/** One store's win-back case: contact, last invoice, reason, history and the four actions. */
export function CaseDrawer(props: { storeId: number | null; onClose: () => void }) {
  const { storeId, onClose } = props;
  return (
    <Drawer
      opened={storeId !== null}
      onClose={onClose}
      position="right"
      size="lg"
      title={storeId === null ? '' : `Win-back case of store ${storeId}`}
    >
      {storeId !== null && <CaseBody key={storeId} storeId={storeId} />}
    </Drawer>
  );
}

function CaseBody({ storeId }: { storeId: number }) {
  const query = useQuery(winbackCaseQueryOptions(storeId));
  const keys = useIdempotencyKeys();
  const [kind, setKind] = useState<'call' | 'note'>('call');
  const [text, setText] = useState('');
  const [offer, setOffer] = useState<'fee_waived' | 'promotion'>('fee_waived');
  const [promotionId, setPromotionId] = useState('');
  const [outcome, setOutcome] = useState<'won' | 'lost'>('lost');
  const [reason, setReason] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const [confirming, setConfirming] = useState(false);

  const failed = (title: string) => (error: unknown) => {
    setErrors(fieldsOf(error));
    const d = describeError(error);
    notifications.show({ color: 'red', title: `${title} — ${d.title}`, message: d.message, autoClose: 8000 });
  };

  const log = useLogWinbackActivity(storeId);
  const makeOffer = useMakeWinbackOffer(storeId);
  const record = useRecordWinbackOutcome(storeId);
  const reactivate = useReactivateWinback(storeId);
  const reactivateStore = (c: WinbackCase) => {
    const actionKey = `reactivate:${storeId}:${c.version}`;
    reactivate.mutate(
      { version: c.version, customerId: c.customer_id, idempotencyKey: keys.keyFor(actionKey) },
      {
        onSuccess: (r) => {
          keys.settle(actionKey);
          setConfirming(false);
          notifications.show({
            color: 'green',
            title: 'Store reactivated',
            message: `Payment link sent to ${r.payment_link_sent_to}.${r.fee_invoice_number ? ` Reactivation fee invoice ${r.fee_invoice_number}.` : ''}`,
            autoClose: 8000,
          });
        },
        onError: (error) => {
          keys.settle(actionKey, error);
          setConfirming(false);
          failed('The store was not reactivated')(error);
        },
      },
    );
  };

  if (query.isPending) return <Text>Loading…</Text>;
  if (query.isError)
    return (
      <Alert color="red" title={describeError(query.error).title}>
        {describeError(query.error).message}
      </Alert>
    );
  const c = query.data;
  const closed = WINBACK_CLOSED_STATUSES.includes(c.status);
  const busy = log.isPending || makeOffer.isPending || record.isPending || reactivate.isPending;

  const submitLog = (e: FormEvent) => {
    e.preventDefault();
    if (!text.trim()) return setErrors({ text: 'Enter the note.' });
    log.mutate(
      { kind, text, version: c.version },
      {
        onSuccess: () => {
          setText('');
          setErrors({});
          notifications.show({ color: 'green', title: kind === 'call' ? 'Call logged' : 'Note added', message: '' });
        },
        onError: failed('The entry was not saved'),
      },
    );
  };
  const submitOffer = (e: FormEvent) => {
    e.preventDefault();
    if (offer === 'promotion' && !promotionId) return setErrors({ promotion_id: 'Choose the promotion to offer.' });
    makeOffer.mutate(
      {
        offer,
        promotion_id: offer === 'promotion' && promotionId ? Number(promotionId) : undefined,
        version: c.version,
      },
      {
        onSuccess: () => {
          setErrors({});
          notifications.show({ color: 'green', title: 'Offer recorded', message: '' });
        },
        onError: failed('The offer was not recorded'),
      },
    );
  };
  const submitOutcome = (e: FormEvent) => {
    e.preventDefault();
    if (outcome === 'lost' && !reason.trim()) return setErrors({ reason: 'Say why the store was lost.' });
    record.mutate(
      { outcome, reason: reason.trim() || undefined, version: c.version },
      {
        onSuccess: (updated) => {
          setErrors({});
          notifications.show({
            color: 'green',
            title: `Outcome recorded: ${WINBACK_STATUS_LABELS[updated.status]}`,
            message: '',
          });
        },
        onError: failed('The outcome was not recorded'),
      },
    );
  };

  return (
    <Stack gap="md">
      <div>
        <Title order={2} size="h3">
          {c.doing_business_as}
        </Title>
        <Text size="sm" c="dimmed">
          {c.legal_name} · Customer {c.customer_id} · {countryName(c.country)}
        </Text>
        <Group gap="xs" mt={4}>
          <Badge variant="light" aria-label={`Status: ${WINBACK_STATUS_LABELS[c.status]}`}>
            {WINBACK_STATUS_LABELS[c.status]}
          </Badge>
          <Text size="sm">
            {WINBACK_REASON_LABELS[c.reason]} on {formatDate(c.reason_on)} ({c.days_since} days ago)
          </Text>
        </Group>
      </div>
      <Table variant="vertical" withTableBorder aria-label="Contact and last invoice">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th w={140}>Contact</Table.Th>
            <Table.Td>{c.contact_name}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Phone</Table.Th>
            <Table.Td>{c.phone ?? '—'}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>E-mail</Table.Th>
            <Table.Td>{c.email}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Last invoice</Table.Th>
            <Table.Td>
              {c.last_invoice_number
                ? `${c.last_invoice_number} · ${formatDate(c.last_invoice_on)} · ${formatCents(c.last_invoice_cents ?? 0, c.currency)} · ${c.last_invoice_status ?? ''}`
                : 'None'}
            </Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th>Offer</Table.Th>
            <Table.Td>
              {c.offer_kind === 'fee_waived'
                ? 'Reactivation fee waived'
                : c.offer_kind === 'promotion'
                  ? `Promotion ${c.offer_promotion_code ?? ''}`
                  : 'None yet'}
              {c.outcome_reason ? ` · Outcome: ${c.outcome_reason}` : ''}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>

      <form onSubmit={submitLog} aria-label="Log call or note">
        <Title order={3} size="h5" mb={4}>
          Log call/note
        </Title>
        <Group align="flex-end" gap="xs">
          <NativeSelect
            label="Entry"
            data={[
              { value: 'call', label: 'Call' },
              { value: 'note', label: 'Note' },
            ]}
            value={kind}
            onChange={(e) => setKind(e.currentTarget.value as 'call' | 'note')}
            w={100}
          />
          <Textarea
            label="What was said"
            value={text}
            onChange={(e) => setText(e.currentTarget.value)}
            error={errors.text}
            rows={2}
            style={{ flex: 1 }}
          />
          <Button type="submit" loading={log.isPending} disabled={busy}>
            Log
          </Button>
        </Group>
      </form>

      {!closed && (
        <form onSubmit={submitOffer} aria-label="Make offer">
          <Title order={3} size="h5" mb={4}>
            Make offer
          </Title>
          <Group align="flex-end" gap="xs">
            <NativeSelect
              label="Offer"
              data={[
                { value: 'fee_waived', label: 'Waive the reactivation fee' },
                { value: 'promotion', label: 'A promotion' },
              ]}
              value={offer}
              onChange={(e) => setOffer(e.currentTarget.value as 'fee_waived' | 'promotion')}
              w={230}
            />
            {offer === 'promotion' && (
              <NativeSelect
                label="Promotion"
                data={[
                  { value: '', label: c.promotions.length ? 'Choose…' : 'No active promotion' },
                  ...c.promotions.map((p) => ({ value: String(p.id), label: `${p.code} — ${p.name}` })),
                ]}
                value={promotionId}
                onChange={(e) => setPromotionId(e.currentTarget.value)}
                error={errors.promotion_id}
                w={220}
              />
            )}
            <Button type="submit" loading={makeOffer.isPending} disabled={busy}>
              Make offer
            </Button>
          </Group>
        </form>
      )}

      {!closed && (
        <form onSubmit={submitOutcome} aria-label="Record outcome">
          <Title order={3} size="h5" mb={4}>
            Record outcome
          </Title>
          <Group align="flex-end" gap="xs">
            <NativeSelect
              label="Outcome"
              data={[
                { value: 'lost', label: 'Lost' },
                { value: 'won', label: 'Won' },
              ]}
              value={outcome}
              onChange={(e) => setOutcome(e.currentTarget.value as 'won' | 'lost')}
              w={100}
            />
            <TextInput
              label="Reason"
              value={reason}
              onChange={(e) => setReason(e.currentTarget.value)}
              error={errors.reason}
              style={{ flex: 1 }}
            />
            <Button type="submit" variant="default" loading={record.isPending} disabled={busy}>
              Record outcome
            </Button>
          </Group>
        </form>
      )}

      {!closed && (
        <Group>
          <Button color="green" onClick={() => setConfirming(true)} disabled={busy}>
            Reactivate
          </Button>
          <Text size="sm" c="dimmed">
            {c.reactivation_fee_cents === null
              ? 'No reactivation fee.'
              : `Reactivation fee ${formatCents(c.reactivation_fee_cents, c.currency)}.`}
          </Text>
        </Group>
      )}

      <Title order={3} size="h5">
        Activity
      </Title>
      {c.activities.length === 0 ? (
        <Text size="sm">Nothing logged yet.</Text>
      ) : (
        <Table aria-label="Activity history" striped>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">When</Table.Th>
              <Table.Th scope="col">What</Table.Th>
              <Table.Th scope="col">By</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {c.activities.map((a) => (
              <Table.Tr key={a.id}>
                <Table.Td>{formatDateTime(a.at)}</Table.Td>
                <Table.Td>
                  <strong>{WINBACK_ACTIVITY_LABELS[a.kind]}</strong>: {a.text}
                </Table.Td>
                <Table.Td>{a.by}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}

      <ConfirmDialog
        opened={confirming}
        title={`Reactivate ${c.doing_business_as}?`}
        message={`The store's plan and license are re-opened${
          c.reactivation_fee_cents === null
            ? ''
            : `, a reactivation fee of ${formatCents(c.reactivation_fee_cents, c.currency)} is invoiced`
        } and a payment link is e-mailed to ${c.email}.`}
        confirmLabel="Reactivate"
        busy={reactivate.isPending}
        onClose={() => setConfirming(false)}
        onConfirm={() => reactivateStore(c)}
      />
    </Stack>
  );
}
