import { Alert, Button, Checkbox, Code, Group, Paper, Stack, Table, Text, Textarea, Title } from '@mantine/core';
import {
  FEATURE_CHANGE_STATUS_LABELS,
  LIMITED_FEATURES,
  canChangeFeature,
  type FeatureChange,
  type Permission,
  type StoreFeature,
  type StoreFeatures,
} from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { useRequestCrmFeatureChange } from '../api/accounts-actions';
import {
  useCancelFeatureChange,
  useFeatureChanges,
  useFeatures,
  usePrepareFeatureChange,
  useUpdateFeatures,
} from '../api/accounts-plans';
import { useCustomerPermissionsQuery, type CustomerPermissions } from '../api/permissions';
import { notifySuccess } from '../lib/notify';
import { EditPageFrame, type EditPageContext } from '../tabs/ui/edit-page-frame';
import { formatCents, formatDate, formatDateTime } from '../../../lib/format';

/**
 * #/editplan?customer=…&store=… (customer_features_edit or customer_features_limited): the store's software
 * features as checkboxes. With only customer_features_limited, the features outside the limited set
 * (decision 057, the domain's LIMITED_FEATURES) are shown disabled with the reason; the server refuses them
 * too. Saving can e-mail the merchant the confirmation (queued by the server with the change); or the change is
 * sent to the merchant to accept through an e-mailed link, with the new monthly amount (decision 123) — the sent
 * changes and what the merchant decided are listed below; a feature change can also be requested through the CRM
 * (decision 069).
 */
export default function EditPlanPage() {
  return (
    <EditPageFrame
      title="Edit plan"
      intro="The store's software features: switch them on or off, or ask for a change through the CRM."
    >
      {(context) => (
        <EditFeatures key={`${context.customer.customer_id}:${context.store?.store_id ?? 0}`} {...context} />
      )}
    </EditPageFrame>
  );
}

/** The feature privileges the permission call granted, as a list for the domain's canChangeFeature. */
export function grantedOf(permissions: CustomerPermissions): Permission[] {
  const granted: Permission[] = [];
  if (permissions.canEditFeatures) granted.push('customer_features_edit');
  if (permissions.canEditLimitedFeatures) granted.push('customer_features_limited');
  return granted;
}

function EditFeatures({ customer, store }: EditPageContext) {
  const customerId = customer.customer_id;
  const storeId = store?.store_id ?? null;
  const privileges = useCustomerPermissionsQuery();
  const features = useFeatures(customerId, storeId);
  if (storeId === null) return <Text>This customer has no store, so it has no features.</Text>;
  if (features.isPending || privileges.isPending) {
    return (
      <Text c="dimmed" role="status">
        Loading the features…
      </Text>
    );
  }
  if (features.isError || privileges.isError) {
    return (
      <Alert color="red" role="alert" title="The features could not be loaded">
        <Button
          size="compact-sm"
          variant="light"
          color="red"
          onClick={() => {
            void features.refetch();
            void privileges.refetch();
          }}
        >
          Try again
        </Button>
      </Alert>
    );
  }
  const granted = grantedOf(privileges.data);
  return (
    <Stack gap="lg">
      <FeaturesForm
        key={features.data.features_version}
        customerId={customerId}
        storeId={storeId}
        data={features.data}
        granted={granted}
      />
      <SentChanges customerId={customerId} storeId={storeId} />
      <CrmRequest storeId={storeId} features={features.data.features} />
    </Stack>
  );
}

function priceText(f: StoreFeature): string {
  if (f.price_cents === null) return 'no price in this currency';
  return `${formatCents(f.price_cents, f.currency)} a month${f.charge_at_level === 'C' ? ' per customer' : ''}`;
}

interface FeaturesFormProps {
  readonly customerId: number;
  readonly storeId: number;
  readonly data: StoreFeatures;
  readonly granted: readonly string[];
}

function FeaturesForm({ customerId, storeId, data, granted }: FeaturesFormProps) {
  const update = useUpdateFeatures(customerId);
  const prepare = usePrepareFeatureChange(customerId);
  const [on, setOn] = useState<ReadonlySet<number>>(
    () => new Set(data.features.filter((f) => f.enabled).map((f) => f.billing_item_id)),
  );
  const [notify, setNotify] = useState(true);
  const [unchanged, setUnchanged] = useState(false);
  const full = granted.includes('customer_features_edit');
  const limitedOnly = !full && granted.includes('customer_features_limited');
  /** The domain's rule on the privileges the server granted, and the server's own answer for this feature. */
  const changeable = (f: StoreFeature) => canChangeFeature(granted, f) && f.can_change;

  const added = data.features.filter((f) => on.has(f.billing_item_id) && !f.enabled);
  const removed = data.features.filter((f) => !on.has(f.billing_item_id) && f.enabled);

  function toggle(f: StoreFeature, checked: boolean) {
    if (!changeable(f)) return;
    setOn((current) => {
      const next = new Set(current);
      if (checked) next.add(f.billing_item_id);
      else next.delete(f.billing_item_id);
      return next;
    });
    setUnchanged(false);
  }

  function sendToMerchant() {
    if (added.length === 0 && removed.length === 0) {
      setUnchanged(true);
      return;
    }
    prepare.mutate(
      { custstoreid: storeId, features: [...on], features_version: data.features_version },
      {
        onSuccess: (change) =>
          notifySuccess(
            `The change is e-mailed to the merchant to accept: the monthly amount would go from ${formatCents(change.current_monthly_cents, change.currency)} to ${formatCents(change.new_monthly_cents, change.currency)}. Nothing is switched until they accept.`,
            'Sent to the merchant',
          ),
      },
    );
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (added.length === 0 && removed.length === 0) {
      setUnchanged(true);
      return;
    }
    update.mutate(
      { custstoreid: storeId, features: [...on], features_version: data.features_version, notify_merchant: notify },
      {
        onSuccess: (result) => {
          const parts = [
            result.added.length > 0 ? `${result.added.length} switched on` : null,
            result.removed.length > 0 ? `${result.removed.length} switched off` : null,
          ].filter(Boolean);
          notifySuccess(
            `Features saved (${parts.join(', ') || 'no change'}).${result.email_job_id ? ' The merchant is e-mailed a confirmation.' : ''}`,
          );
        },
      },
    );
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="features-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4" id="features-title">
            Features
          </Title>
          {limitedOnly && (
            <Alert color="blue" title="Limited feature access" role="note">
              Your access changes only these features: {LIMITED_FEATURES.join(', ')}. The others are shown for
              information; ask someone with full feature access (customer_features_edit), or request the change through
              the CRM below.
            </Alert>
          )}
          {!full && !limitedOnly && (
            <Alert color="orange" title="View only" role="note">
              Your access does not change features.
            </Alert>
          )}
          <Table verticalSpacing={6} fz="sm" captionSide="top">
            <Table.Caption>Features of store {storeId}</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Feature</Table.Th>
                <Table.Th scope="col">Price</Table.Th>
                <Table.Th scope="col">Now</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {data.features.map((f) => {
                const allowed = changeable(f);
                return (
                  <Table.Tr key={f.billing_item_id}>
                    <Table.Td>
                      <Checkbox
                        label={f.name}
                        checked={on.has(f.billing_item_id)}
                        disabled={!allowed}
                        description={allowed ? undefined : 'Needs full feature access (customer_features_edit)'}
                        onChange={(e) => toggle(f, e.currentTarget.checked)}
                      />
                    </Table.Td>
                    <Table.Td>{priceText(f)}</Table.Td>
                    <Table.Td>{f.enabled ? 'On' : 'Off'}</Table.Td>
                  </Table.Tr>
                );
              })}
            </Table.Tbody>
          </Table>
          <Text size="sm" role="status">
            {added.length === 0 && removed.length === 0
              ? unchanged
                ? 'Nothing changed.'
                : 'No changes yet.'
              : `To switch on: ${added.map((f) => f.name).join(', ') || 'none'}. To switch off: ${removed.map((f) => f.name).join(', ') || 'none'}.`}
          </Text>
          <Checkbox
            label="E-mail the merchant a confirmation"
            checked={notify}
            onChange={(e) => setNotify(e.currentTarget.checked)}
          />
          <Group>
            <Button type="submit" loading={update.isPending} disabled={(!full && !limitedOnly) || prepare.isPending}>
              Save features
            </Button>
            <Button
              variant="default"
              onClick={sendToMerchant}
              loading={prepare.isPending}
              disabled={(!full && !limitedOnly) || update.isPending}
            >
              Send to the merchant to accept
            </Button>
          </Group>
          <Text size="xs" c="dimmed">
            Saving switches the features now. Sending e-mails the merchant a link to accept or decline the change with
            the new monthly amount of the store&apos;s monthly plan; it is applied when they accept.
          </Text>
        </Stack>
      </form>
    </Paper>
  );
}

function SentChanges({ customerId, storeId }: { readonly customerId: number; readonly storeId: number }) {
  const changes = useFeatureChanges(customerId, storeId);
  const cancel = useCancelFeatureChange(customerId);
  if (changes.isPending || changes.isError || changes.data.items.length === 0) return null;
  const what = (c: FeatureChange) => c.changes.map((l) => `${l.action === 'add' ? 'On' : 'Off'}: ${l.name}`).join(', ');
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="sent-changes-title">
      <Stack gap="sm">
        <Title order={2} size="h4" id="sent-changes-title">
          Changes sent to the merchant
        </Title>
        <Table verticalSpacing={6} fz="sm" aria-labelledby="sent-changes-title">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Sent</Table.Th>
              <Table.Th scope="col">Change</Table.Th>
              <Table.Th scope="col">Monthly amount</Table.Th>
              <Table.Th scope="col">From</Table.Th>
              <Table.Th scope="col">Status</Table.Th>
              <Table.Th scope="col">Action</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {changes.data.items.map((c) => (
              <Table.Tr key={c.feature_change_id}>
                <Table.Td>
                  {formatDateTime(c.created_at)} by {c.created_by_email}
                </Table.Td>
                <Table.Td>{what(c)}</Table.Td>
                <Table.Td>
                  {formatCents(c.current_monthly_cents, c.currency)} → {formatCents(c.new_monthly_cents, c.currency)}
                </Table.Td>
                <Table.Td>{formatDate(c.effective_on)}</Table.Td>
                <Table.Td>
                  {FEATURE_CHANGE_STATUS_LABELS[c.status]}
                  {c.decided_at ? ` ${formatDateTime(c.decided_at)}${c.decided_ip ? ` from ${c.decided_ip}` : ''}` : ''}
                </Table.Td>
                <Table.Td>
                  {c.status === 'sent' && (
                    <Button
                      size="compact-sm"
                      variant="subtle"
                      color="red"
                      loading={cancel.isPending && cancel.variables?.changeId === c.feature_change_id}
                      aria-label={`Cancel the change sent ${formatDateTime(c.created_at)}`}
                      onClick={() =>
                        cancel.mutate(
                          { changeId: c.feature_change_id, version: c.version },
                          { onSuccess: () => notifySuccess('The change is canceled; its link no longer works.') },
                        )
                      }
                    >
                      Cancel
                    </Button>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Stack>
    </Paper>
  );
}

function CrmRequest({ storeId, features }: { storeId: number; features: readonly StoreFeature[] }) {
  const request = useRequestCrmFeatureChange();
  const [chosen, setChosen] = useState<string[]>([]);
  const [notes, setNotes] = useState('');
  const [error, setError] = useState<string | null>(null);

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (chosen.length === 0) {
      setError('Choose at least one feature.');
      return;
    }
    setError(null);
    request.mutate({ storeid: storeId, features: chosen, notes: notes.trim() || undefined });
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="crm-title">
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <div>
            <Title order={2} size="h4" id="crm-title">
              Request a feature change (CRM)
            </Title>
            <Text size="sm" c="dimmed">
              Sends a feature-change request to the CRM, where the account team processes it (e.g. a feature that needs
              hardware or a contract change).
            </Text>
          </div>
          <Checkbox.Group label="Features to change" value={chosen} onChange={setChosen} error={error}>
            <Group mt={4} gap="md">
              {features.map((f) => (
                <Checkbox key={f.billing_item_id} value={f.name} label={f.name} />
              ))}
            </Group>
          </Checkbox.Group>
          <Textarea
            label="Notes"
            description="What should change, and when"
            value={notes}
            onChange={(e) => setNotes(e.currentTarget.value)}
            maxLength={2000}
            rows={3}
          />
          <Group>
            <Button type="submit" variant="default" loading={request.isPending}>
              Send request to CRM
            </Button>
          </Group>
          {request.isSuccess && (
            <Text role="status" size="sm">
              Request queued as job <Code>{request.data.jobId}</Code>.
            </Text>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
