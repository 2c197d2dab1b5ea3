import { Alert, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import type { MerchantFeatureChangeView } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useParams } from 'react-router';
import { Spinner } from '../../../components/spinner';
import { describeError } from '../../../lib/error-message';
import { formatCents, formatDate } from '../../../lib/format';
import { decideFeatureChange, getMerchantFeatureChangeQueryOptions } from '../api/merchant-features';
import { LinkProblem, linkProblemText } from '../../../components/link-problem';

const ACTION_TEXT = { add: 'Switched on', remove: 'Switched off' } as const;

/**
 * #/customer/features/{tok} (public, no sign-in; decision 123): the feature change our staff prepared for the store
 * — the features switched on and off with their monthly prices, the monthly amount now and after, from when — and
 * Accept / Decline. Accepting applies it at once; the link then stops working.
 */
export default function MerchantFeaturesPage() {
  const tok = useParams().tok ?? '';
  const view = useQuery(getMerchantFeatureChangeQueryOptions(tok));
  const [busy, setBusy] = useState<'accept' | 'decline' | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [result, setResult] = useState<MerchantFeatureChangeView | null>(null);

  if (view.isPending) return <Spinner busy />;
  if (view.isError) {
    return (
      <LinkProblem heading="Your plan change" announce>
        {linkProblemText(view.error)}
      </LinkProblem>
    );
  }
  const v = view.data;
  const money = (cents: number) => formatCents(cents, v.currency);

  if (result) {
    return (
      <Stack gap="md" maw={720}>
        <Title order={1} size="h2">
          {result.status === 'accepted' ? 'Thank you — the change is accepted' : 'You declined the change'}
        </Title>
        <Text>
          {result.status === 'accepted'
            ? `${result.store_name}: the features are changed now. Your monthly amount is ${money(result.new_monthly_cents)} from ${formatDate(result.effective_on)}.`
            : `${result.store_name}: nothing changes. Your monthly amount stays ${money(result.current_monthly_cents)}.`}
        </Text>
      </Stack>
    );
  }

  const decide = async (decision: 'accept' | 'decline') => {
    setBusy(decision);
    setError(null);
    try {
      setResult(await decideFeatureChange(tok, { decision, version: v.version }));
    } catch (e) {
      setError(describeError(e).message);
    } finally {
      setBusy(null);
    }
  };

  return (
    <Stack gap="md" maw={720}>
      <Title order={1} size="h2">
        Feature change — {v.store_name}
      </Title>
      <Text>We prepared this change of your store&apos;s features. Nothing changes until you accept it.</Text>
      <Table aria-label="Feature changes" withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Feature</Table.Th>
            <Table.Th scope="col">Change</Table.Th>
            <Table.Th scope="col">Monthly price</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {v.changes.map((c) => (
            <Table.Tr key={c.billing_item_id}>
              <Table.Td>{c.name}</Table.Td>
              <Table.Td>{ACTION_TEXT[c.action]}</Table.Td>
              <Table.Td>
                {c.action === 'add' ? '+' : '−'}
                {money(c.monthly_cents)}
              </Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Table aria-label="Monthly amount" withTableBorder w="fit-content">
        <Table.Tbody>
          <Table.Tr>
            <Table.Th scope="row">Monthly amount now</Table.Th>
            <Table.Td>{money(v.current_monthly_cents)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Th scope="row">New monthly amount</Table.Th>
            <Table.Td>
              <strong>{money(v.new_monthly_cents)}</strong> from {formatDate(v.effective_on)}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {v.expires_at && <Text size="sm">This link works until {formatDate(v.expires_at)}.</Text>}
      {error && (
        <Alert color="red" role="alert" title="Your answer was not recorded">
          {error}
        </Alert>
      )}
      <Group>
        <Button onClick={() => void decide('accept')} loading={busy === 'accept'} disabled={busy !== null}>
          Accept the change
        </Button>
        <Button
          variant="default"
          onClick={() => void decide('decline')}
          loading={busy === 'decline'}
          disabled={busy !== null}
        >
          Decline
        </Button>
      </Group>
    </Stack>
  );
}
