import { Alert, Paper, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import {
  bindFilter,
  FilterBar,
  FilterText,
  ListError,
  useCheckedFilters,
  useListState,
} from '../../../components/list';
import { formatCents } from '../../../lib/format';
import { getReferralQueryOptions, isReferralMissing } from '../api/referrals';

/** `#/lookups?tab=referral&ref=REF-DEMO1`. */
const LIST_OPTIONS = { defaults: { ref: '' } } as const;

/**
 * One referral (GET customers/referrals/{refId}): its code or number, "Look up" → its name, agent and discount; a
 * code nobody has (or another agent's, for an agent's session) is said in words, with what to do.
 */
export function ReferralLookup() {
  const list = useListState<{ readonly ref: string }>(LIST_OPTIONS);
  const { errors, apply, clear } = useCheckedFilters(
    list,
    (d) => ({ ref: d.ref.trim().length > 50 ? 'A referral code has at most 50 characters.' : undefined }),
    { normalize: (d) => ({ ref: d.ref.trim() }) },
  );
  const field = bindFilter(list, errors);
  const refId = list.applied.ref.trim();
  const referral = useQuery(getReferralQueryOptions(refId));
  const r = referral.data;

  return (
    <>
      <FilterBar label="Look up a referral" onApply={apply} onClear={clear} applyLabel="Look up" clearLabel="Clear">
        <FilterText
          label="Referral id"
          description="The referral's code (REF-…) or its number"
          placeholder="REF-…"
          {...field('ref')}
        />
      </FilterBar>
      {refId === '' && <Text c="dimmed">Enter a referral's code or number, then press Look up.</Text>}
      {refId !== '' && referral.isPending && <Text c="dimmed">Looking up {refId}…</Text>}
      {isReferralMissing(referral.error) ? (
        <Alert color="yellow" title={`No referral ${refId}`}>
          No active referral has the code or id {refId}. Check the code with the agent who gave it, then look it up
          again.
        </Alert>
      ) : (
        <ListError error={referral.error} />
      )}
      {r && (
        <Paper withBorder p="md" maw={640}>
          <Title order={2} size="h4" mb="sm">
            Referral {r.ref_code}
          </Title>
          <Table variant="vertical" layout="fixed" aria-label={`Referral ${r.ref_code}`}>
            <Table.Tbody>
              <Table.Tr>
                <Table.Th scope="row" w={180}>
                  Code
                </Table.Th>
                <Table.Td>{r.ref_code}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">Referral id</Table.Th>
                <Table.Td>{r.referral_id}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">Name</Table.Th>
                <Table.Td>{r.name}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">Agent</Table.Th>
                <Table.Td>
                  {r.agent_name === null ? 'No agent' : `${r.agent_name} (agent ${r.agent_id ?? '—'})`}
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">Discount</Table.Th>
                <Table.Td>{formatCents(r.discount_cents, r.currency)}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th scope="row">Currency</Table.Th>
                <Table.Td>{r.currency}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        </Paper>
      )}
    </>
  );
}
