import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  NativeSelect,
  Paper,
  Radio,
  Stack,
  Table,
  Text,
  Title,
} from '@mantine/core';
import {
  cardBrandLabel,
  isMerchantCountry,
  type CustomerRecord,
  type ExpiringCard,
  type MerchantCountryCode,
  type PaymentInstrument,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { useCustomer } from '../../../api/customers';
import { useSendPaymentUpdateLink } from '../../../api/notifications';
import { getPermissionsQueryOptions } from '../../../api/permissions';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { formatTotal, ListPagination } from '../../../components/list/list-pagination';
import { describeError } from '../../../lib/error-message';
import { formatDate } from '../../../lib/format';
import {
  EXPIRING_PAGE_SIZE,
  useExpiringCards,
  useInstruments,
  useRemoveInstrument,
  useSetDefaultInstrument,
} from '../api/accounts-payment';
import { usePlans } from '../api/accounts-plans';
import { CustomerSearchForm } from '../components/customer-search-form';
import { CustomerSearchView } from '../components/customer-search-view';
import { BankForm, CardForm } from '../components/instrument-forms';
import { notifyError, notifySuccess } from '../lib/notify';
import { formatSort, parseSort, type SortState } from '../lib/url-state';

/** The privileges this screen asks about; the server checks every call again. */
const PRIVILEGES = [
  'customer_details_view',
  'customer_details_edit',
  'failed_payments_edit',
  'collect_payment',
] as const;

/** The window of "Expiring cards" (days), the server's default. */
const EXPIRING_DAYS = 30;

function positiveInt(text: string | null): number | null {
  return text !== null && /^\d{1,10}$/.test(text) && Number(text) > 0 && Number(text) <= 2_147_483_647
    ? Number(text)
    : null;
}

/** '12/2029' */
export function formatExpiry(month: number, year: number): string {
  return `${String(month).padStart(2, '0')}/${year}`;
}

const PATH = '/payment/instruments';

/** `#/payment/instruments?q=…&customer=…&page=…&sort=…&expiring=…`: the search, the customer, the pages. */
export function paymentInstrumentsPath(state: {
  q?: string;
  customer?: number | null;
  page?: number;
  sort?: SortState | null;
  expiring?: number;
}): string {
  const p = new URLSearchParams();
  if (state.q) p.set('q', state.q);
  if (state.customer) p.set('customer', String(state.customer));
  if (state.page && state.page > 1) p.set('page', String(state.page));
  const sort = formatSort(state.sort ?? null);
  if (sort) p.set('sort', sort);
  if (state.expiring && state.expiring > 1) p.set('expiring', String(state.expiring));
  const query = p.toString();
  return query ? `${PATH}?${query}` : PATH;
}

/**
 * #/payment/instruments (session; issue 15 point 8, decision 115): find a customer and work on its payment
 * instruments — add a card or bank account (the /editpayment forms), make one the default, remove one (not the
 * default while a payment plan is active) — and the cards of all customers expiring within 30 days, each with
 * "Send update link". Only brand, last four digits and expiry are ever shown.
 */
export default function PaymentInstrumentsPage() {
  const [params, setParams] = useSearchParams();
  const state = {
    q: params.get('q') ?? '',
    customer: positiveInt(params.get('customer')),
    page: positiveInt(params.get('page')) ?? 1,
    sort: parseSort(params.get('sort')),
    expiring: positiveInt(params.get('expiring')) ?? 1,
  };
  const go = (next: Partial<typeof state>, replace = false) =>
    setParams(new URLSearchParams(paymentInstrumentsPath({ ...state, ...next }).split('?')[1] ?? ''), { replace });
  const permissions = useQuery(getPermissionsQueryOptions(PRIVILEGES));
  const flags = permissions.data ?? {};
  const canRead = flags.customer_details_view === true || flags.customer_details_edit === true;
  const canEdit = flags.customer_details_edit === true;
  const canSendLink = canEdit || flags.failed_payments_edit === true || flags.collect_payment === true;

  let body;
  if (permissions.isPending) {
    body = (
      <Text c="dimmed" role="status">
        Checking what you may do…
      </Text>
    );
  } else if (!canRead) {
    body = (
      <Alert color="orange" title="Not available to you" role="alert">
        Payment instruments need the customer details privilege (view or edit). Ask an administrator for it.
      </Alert>
    );
  } else {
    body = (
      <>
        <CustomerSearchForm
          initial={state.q}
          onSearch={(text) => go({ q: text, customer: null, page: 1, sort: null })}
        />
        {state.customer === null ? (
          <CustomerSearchView
            q={state.q}
            page={state.page}
            sort={state.sort}
            onPage={(page) => go({ page }, true)}
            onSort={(sort) => go({ sort, page: 1 }, true)}
            linkTo={({ customerId }) => paymentInstrumentsPath({ ...state, customer: customerId })}
          />
        ) : (
          <CustomerInstruments
            key={state.customer}
            customerId={state.customer}
            canEdit={canEdit}
            backTo={paymentInstrumentsPath({ ...state, customer: null })}
          />
        )}
        <ExpiringCards
          page={state.expiring}
          onPage={(expiring) => go({ expiring }, true)}
          canSendLink={canSendLink}
          openCustomer={(customerId) => paymentInstrumentsPath({ ...state, customer: customerId })}
        />
      </>
    );
  }

  return (
    <Stack gap="lg">
      <div>
        <Title order={1} size="h2">
          Payment instruments
        </Title>
        <Text c="dimmed" size="sm">
          Find a customer by customer id, federal tax id or name to see, add, make default or remove its cards and bank
          accounts. Only the brand, the last four digits and the expiry are shown.
        </Text>
      </div>
      {body}
    </Stack>
  );
}

// ── One customer's instruments ────────────────────────────────────────────────────────────────────

interface CustomerInstrumentsProps {
  readonly customerId: number;
  readonly canEdit: boolean;
  /** Back to the search results. */
  readonly backTo: string;
}

function CustomerInstruments({ customerId, canEdit, backTo }: CustomerInstrumentsProps) {
  const record = useCustomer(customerId);
  const customer = record.data;
  if (record.isError) {
    const { title, message } = describeError(record.error);
    return (
      <Alert color="red" title={title} role="alert">
        {message}{' '}
        <Anchor component={Link} to={backTo}>
          Back to the search
        </Anchor>
      </Alert>
    );
  }
  if (!customer)
    return (
      <Text c="dimmed" role="status">
        Loading the customer…
      </Text>
    );
  return (
    <Stack gap="lg" component="section" aria-labelledby="customer-instruments-title">
      <Group justify="space-between" align="flex-end">
        <div>
          <Title order={2} size="h3" id="customer-instruments-title">
            {customer.legal_name}
          </Title>
          <Text size="sm" c="dimmed">
            Customer {customer.customer_id}
          </Text>
        </div>
        <Anchor component={Link} to={backTo}>
          Choose another customer
        </Anchor>
      </Group>
      <InstrumentTable customer={customer} canEdit={canEdit} />
      {canEdit && <AddInstrument customer={customer} />}
    </Stack>
  );
}

const KIND_LABELS: Readonly<Record<PaymentInstrument['kind'], string>> = {
  card: 'Card',
  bank: 'Bank account',
  cash: 'Cash',
};

function brandOrBank(i: PaymentInstrument): string {
  if (i.card) return cardBrandLabel(i.card.brand);
  if (i.bank) return i.bank.bank_name ?? 'Bank account';
  return '—';
}

function last4Of(i: PaymentInstrument): string {
  return i.card?.last4 ?? i.bank?.account_last4 ?? '—';
}

function InstrumentTable({ customer, canEdit }: { customer: CustomerRecord; canEdit: boolean }) {
  const customerId = customer.customer_id;
  const list = useInstruments(customerId, { storeId: null, status: 'all' });
  const plans = usePlans(customerId, { storeId: null, status: 'active', limit: 1, offset: 0 });
  const activePlans = plans.data?.total ?? 0;
  const setDefault = useSetDefaultInstrument(customerId);
  const remove = useRemoveInstrument(customerId);
  const [removing, setRemoving] = useState<PaymentInstrument | null>(null);
  const items = list.data?.items ?? [];
  const storeName = (storeId: number | null) =>
    storeId === null
      ? 'All stores'
      : (customer.stores.find((s) => s.store_id === storeId)?.store_name ?? `Store ${storeId}`);
  const describe = (i: PaymentInstrument) => `${brandOrBank(i)} ending ${last4Of(i)}`;
  const removeBlocked = (i: PaymentInstrument): string | null =>
    i.is_default && activePlans > 0
      ? `The default pays ${activePlans === 1 ? 'an active payment plan' : 'active payment plans'}: make another one the default first.`
      : null;

  return (
    <section aria-label="Payment instruments of the customer">
      <Table.ScrollContainer minWidth={900}>
        <Table striped verticalSpacing="xs" fz="sm" captionSide="top">
          <Table.Caption>Payment instruments (default first)</Table.Caption>
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Kind</Table.Th>
              <Table.Th scope="col">Brand / bank</Table.Th>
              <Table.Th scope="col">Last 4</Table.Th>
              <Table.Th scope="col">Expiry</Table.Th>
              <Table.Th scope="col">Store</Table.Th>
              <Table.Th scope="col">Default</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              {canEdit && <Table.Th scope="col">Actions</Table.Th>}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.isPending && (
              <Table.Tr>
                <Table.Td colSpan={8}>Loading…</Table.Td>
              </Table.Tr>
            )}
            {list.isError && (
              <Table.Tr>
                <Table.Td colSpan={8}>
                  <Text c="red" size="sm" role="alert">
                    {describeError(list.error).message}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {list.isSuccess && items.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={8}>
                  <Text c="dimmed" size="sm">
                    No payment instrument on file.
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {items.map((i) => {
              const active = i.status === 'active';
              const blocked = removeBlocked(i);
              return (
                <Table.Tr key={i.id} aria-label={describe(i)}>
                  <Table.Td>{KIND_LABELS[i.kind]}</Table.Td>
                  <Table.Th scope="row">{brandOrBank(i)}</Table.Th>
                  <Table.Td>{last4Of(i)}</Table.Td>
                  <Table.Td>
                    {i.card ? formatExpiry(i.card.exp_month, i.card.exp_year) : '—'}
                    {i.card?.expired && (
                      <Badge ml="xs" color="red" variant="light">
                        Expired
                      </Badge>
                    )}
                  </Table.Td>
                  <Table.Td>{storeName(i.store_id)}</Table.Td>
                  <Table.Td>{i.is_default ? <Badge variant="light">Default</Badge> : '—'}</Table.Td>
                  <Table.Td>{active ? 'Active' : 'Removed'}</Table.Td>
                  {canEdit && (
                    <Table.Td>
                      {active && (
                        <Stack gap={4}>
                          <Group gap="xs" wrap="nowrap">
                            {!i.is_default && !i.card?.expired && (
                              <Button
                                size="xs"
                                variant="light"
                                loading={setDefault.isPending && setDefault.variables?.instrumentId === i.id}
                                onClick={() =>
                                  setDefault.mutate(
                                    { instrumentId: i.id, version: i.version },
                                    {
                                      onSuccess: () =>
                                        notifySuccess(`${describe(i)} is now the default.`, 'Default changed'),
                                    },
                                  )
                                }
                                aria-label={`Make ${describe(i)} the default`}
                              >
                                Make default
                              </Button>
                            )}
                            <Button
                              size="xs"
                              variant="default"
                              color="red"
                              disabled={blocked !== null || plans.isPending}
                              onClick={() => setRemoving(i)}
                              aria-label={`Remove ${describe(i)}`}
                              aria-describedby={blocked ? `remove-blocked-${i.id}` : undefined}
                            >
                              Remove
                            </Button>
                          </Group>
                          {!i.is_default && i.card?.expired && (
                            <Text size="xs" c="dimmed">
                              An expired card cannot be the default.
                            </Text>
                          )}
                          {blocked && (
                            <Text size="xs" c="dimmed" id={`remove-blocked-${i.id}`}>
                              {blocked}
                            </Text>
                          )}
                        </Stack>
                      )}
                    </Table.Td>
                  )}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ConfirmDialog
        opened={removing !== null}
        title="Remove payment instrument"
        message={
          removing
            ? `Remove ${describe(removing)}? It will no longer be charged${removing.is_default ? ', and the customer will have no default payment method' : ''}.`
            : ''
        }
        confirmLabel="Remove"
        color="red"
        busy={remove.isPending}
        onClose={() => setRemoving(null)}
        onConfirm={() => {
          if (!removing) return;
          const target = removing;
          remove.mutate(
            { instrumentId: target.id, version: target.version },
            {
              onSuccess: () => notifySuccess(`${describe(target)} is removed.`, 'Removed'),
              onSettled: () => setRemoving(null),
            },
          );
        }}
      />
    </section>
  );
}

function AddInstrument({ customer }: { customer: CustomerRecord }) {
  const [method, setMethod] = useState<'card' | 'bank'>('card');
  const [storeId, setStoreId] = useState<number | null>(null);
  const store = customer.stores.find((s) => s.store_id === storeId) ?? null;
  const countryText = store?.country ?? customer.country;
  const country: MerchantCountryCode = isMerchantCountry(countryText) ? countryText : 'US';
  const onSaved = (i: PaymentInstrument) =>
    notifySuccess(
      `${i.card ? cardBrandLabel(i.card.brand) : (i.bank?.bank_name ?? 'Bank account')} ending ${i.card?.last4 ?? i.bank?.account_last4 ?? ''} is saved${i.is_default ? ' as the default' : ''}.`,
      'Payment method saved',
    );
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="add-instrument-title">
      <Stack gap="md">
        <Title order={3} size="h4" id="add-instrument-title">
          Add a payment instrument
        </Title>
        <Group align="flex-end">
          <Radio.Group label="Kind" value={method} onChange={(v) => setMethod(v === 'bank' ? 'bank' : 'card')}>
            <Group mt={4}>
              <Radio value="card" label="Card" />
              <Radio value="bank" label="Bank account" />
            </Group>
          </Radio.Group>
          <NativeSelect
            label="For store"
            value={storeId === null ? '' : String(storeId)}
            onChange={(e) => setStoreId(positiveInt(e.currentTarget.value))}
            data={[
              { value: '', label: 'All stores of the customer' },
              ...customer.stores.map((s) => ({ value: String(s.store_id), label: `${s.store_name} (${s.store_id})` })),
            ]}
            w={300}
          />
        </Group>
        {method === 'card' ? (
          <CardForm
            key={`card:${storeId ?? 0}`}
            customerId={customer.customer_id}
            storeId={storeId}
            onSaved={onSaved}
          />
        ) : (
          <BankForm
            key={`bank:${storeId ?? 0}`}
            customerId={customer.customer_id}
            storeId={storeId}
            country={country}
            onSaved={onSaved}
          />
        )}
      </Stack>
    </Paper>
  );
}

// ── Cards expiring within 30 days (all customers) ─────────────────────────────────────────────────

interface ExpiringCardsProps {
  readonly page: number;
  readonly onPage: (page: number) => void;
  readonly canSendLink: boolean;
  readonly openCustomer: (customerId: number) => string;
}

/** Why "Send update link" cannot be used for a row, or null when it can. */
export function sendLinkBlocked(
  card: Pick<ExpiringCard, 'elmer_id' | 'store_id'>,
  canSendLink: boolean,
): string | null {
  if (!canSendLink) return 'Sending the link needs the customer details edit privilege.';
  if (card.elmer_id === null)
    return card.store_id === null
      ? 'No store of this customer has a terminal in use: the link is sent for a terminal.'
      : 'This store has no terminal in use: the link is sent for a terminal.';
  return null;
}

function ExpiringCards({ page, onPage, canSendLink, openCustomer }: ExpiringCardsProps) {
  const list = useExpiringCards({ days: EXPIRING_DAYS, page });
  const send = useSendPaymentUpdateLink({ meta: { silentError: true }, onError: notifyError });
  const [sent, setSent] = useState<Readonly<Record<number, string>>>({});
  const total = list.data?.total ?? 0;
  const items = list.data?.items ?? [];
  return (
    <Stack component="section" aria-labelledby="expiring-title" gap="sm" aria-busy={list.isFetching}>
      <div>
        <Title order={2} size="h3" id="expiring-title">
          Expiring cards ({EXPIRING_DAYS} days)
        </Title>
        <Text size="sm" c="dimmed" role="status">
          Active cards of every customer whose expiry month ends within {EXPIRING_DAYS} days
          {list.data ? ` — ${formatTotal(total)} ${total === 1 ? 'card' : 'cards'}` : ''}.
        </Text>
      </div>
      <Table.ScrollContainer minWidth={900}>
        <Table striped verticalSpacing="xs" fz="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Customer</Table.Th>
              <Table.Th scope="col">Store</Table.Th>
              <Table.Th scope="col">Card</Table.Th>
              <Table.Th scope="col">Expiry</Table.Th>
              <Table.Th scope="col">Default</Table.Th>
              <Table.Th scope="col">Update link</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {list.isPending && (
              <Table.Tr>
                <Table.Td colSpan={6}>Loading…</Table.Td>
              </Table.Tr>
            )}
            {list.isError && (
              <Table.Tr>
                <Table.Td colSpan={6}>
                  <Text c="red" size="sm" role="alert">
                    {describeError(list.error).message}
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {list.isSuccess && items.length === 0 && (
              <Table.Tr>
                <Table.Td colSpan={6}>
                  <Text c="dimmed" size="sm">
                    No card expires within {EXPIRING_DAYS} days.
                  </Text>
                </Table.Td>
              </Table.Tr>
            )}
            {items.map((c) => {
              const blocked = sendLinkBlocked(c, canSendLink);
              const card = `${cardBrandLabel(c.brand)} ending ${c.last4}`;
              return (
                <Table.Tr key={c.instrument_id} aria-label={`${card} of ${c.customer_name}`}>
                  <Table.Td>
                    <Anchor component={Link} to={openCustomer(c.customer_id)}>
                      {c.customer_name}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{c.store_name ?? (c.store_id === null ? 'All stores' : `Store ${c.store_id}`)}</Table.Td>
                  <Table.Td>{card}</Table.Td>
                  <Table.Td>
                    {formatExpiry(c.exp_month, c.exp_year)}{' '}
                    <Text span size="xs" c="dimmed">
                      (last day {formatDate(c.expires_on)})
                    </Text>
                  </Table.Td>
                  <Table.Td>{c.is_default ? 'Default' : '—'}</Table.Td>
                  <Table.Td>
                    <Stack gap={2}>
                      <Button
                        size="xs"
                        variant="light"
                        disabled={blocked !== null}
                        loading={send.isPending && send.variables?.elmer_id === c.elmer_id}
                        aria-label={`Send update link for ${card} of ${c.customer_name}`}
                        aria-describedby={blocked ? `send-blocked-${c.instrument_id}` : undefined}
                        onClick={() => {
                          if (c.elmer_id === null) return;
                          send.mutate(
                            { elmer_id: c.elmer_id },
                            {
                              onSuccess: (job) => {
                                setSent((s) => ({ ...s, [c.instrument_id]: job.jobId }));
                                notifySuccess(
                                  `The payment-update link for ${card} is on its way to ${c.customer_name}.`,
                                  'Link sent',
                                );
                              },
                            },
                          );
                        }}
                      >
                        Send update link
                      </Button>
                      {blocked && (
                        <Text size="xs" c="dimmed" id={`send-blocked-${c.instrument_id}`}>
                          {blocked}
                        </Text>
                      )}
                      {sent[c.instrument_id] && (
                        <Text size="xs" role="status">
                          Sent: the merchant is e-mailed the link within a minute.
                        </Text>
                      )}
                    </Stack>
                  </Table.Td>
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      <ListPagination
        hideSinglePage
        label="Expiring card pages"
        total={total}
        pageSize={EXPIRING_PAGE_SIZE}
        page={page}
        onChange={onPage}
      />
    </Stack>
  );
}
