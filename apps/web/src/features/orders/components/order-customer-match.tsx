import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { effectivePrivileges, isAgentScoped, type CustomerMatchRecord, type OrderSearchRecord } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { describeError } from '../../../lib/error-message';
import { formatDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import { getCustomerMatchQueryOptions, useDecideCustomerMatch } from '../api/orders';

/*
 * Decision 142: an agent's order whose federal tax id is an existing customer the agent may not see waits for a staff
 * confirmation before onboarding attaches it to that customer. The panel shows the match; staff with
 * customer_details_edit (never an agent's session) confirm it or onboard the order as a new customer.
 */

function statusLine(match: CustomerMatchRecord): string {
  const by = match.decided_by_email ?? '';
  const when = match.decided_at ? formatDateTime(match.decided_at) : '';
  switch (match.status) {
    case 'pending':
      return 'Waiting for a staff confirmation: the order cannot be completed until someone decides.';
    case 'confirmed':
      return `Confirmed by ${by} on ${when}: onboarding attaches the order to this customer.`;
    case 'rejected':
      return `${by} chose to onboard as a new customer on ${when}: onboarding makes a new customer.`;
  }
}

/** The order's existing-customer match, if it has one (nothing is shown otherwise). */
export function OrderCustomerMatchSection({ order }: { readonly order: OrderSearchRecord }) {
  const { session } = useSession();
  const role = session?.role ?? '';
  const mayDecide =
    session !== null &&
    !isAgentScoped({ kind: 'staff', role }) &&
    effectivePrivileges(role, session.additional_privileges).includes('customer_details_edit');
  const query = useQuery(getCustomerMatchQueryOptions(order.id));
  const decide = useDecideCustomerMatch(order.id);
  const decideMatch = (decision: 'confirm' | 'reject') =>
    decide.mutate(
      { customer_id: query.data!.customer!.customer_id, decision },
      {
        onSuccess: (match) =>
          notifications.show({
            color: 'green',
            title: match?.status === 'confirmed' ? 'Match confirmed' : 'Onboard as a new customer',
            message:
              match?.status === 'confirmed'
                ? `Order ${order.unified_order_id} will be attached to the existing customer when it completes.`
                : `Order ${order.unified_order_id} will make a new customer when it completes.`,
            autoClose: 5000,
          }),
        onError: (error) => {
          const { title, message } = describeError(error);
          notifications.show({ color: 'red', title, message, autoClose: 8000, withBorder: true });
        },
      },
    );
  const match = query.data;
  if (!match) return null;
  const customer = match.customer;
  return (
    <section aria-label="Existing customer match">
      <Title order={3} size="h5" mb="xs">
        Existing customer match
      </Title>
      <Stack gap="xs">
        <Alert color={match.status === 'pending' ? 'yellow' : 'gray'} title={`Federal tax id ${match.federal_tax_id}`}>
          <Text size="sm">
            {customer ? (
              <>
                This tax id is customer{' '}
                <Anchor href={`#/customer?id=${customer.customer_id}`}>
                  {customer.legal_name} (#{customer.customer_id})
                </Anchor>{' '}
                ({customer.email}), whom the order&apos;s agent may not see.
              </>
            ) : (
              'This tax id belongs to an existing customer.'
            )}{' '}
            {statusLine(match)}
          </Text>
          <Text size="xs" c="dimmed">
            Flagged by {match.flagged_by_email} on {formatDateTime(match.flagged_at)}.
          </Text>
        </Alert>
        {mayDecide && customer && (
          <Group>
            <Button
              onClick={() => decideMatch('confirm')}
              loading={decide.isPending && decide.variables?.decision === 'confirm'}
              disabled={decide.isPending || match.status === 'confirmed'}
            >
              Confirm match
            </Button>
            <Button
              variant="default"
              onClick={() => decideMatch('reject')}
              loading={decide.isPending && decide.variables?.decision === 'reject'}
              disabled={decide.isPending || match.status === 'rejected'}
            >
              Onboard as new customer
            </Button>
          </Group>
        )}
      </Stack>
    </section>
  );
}
