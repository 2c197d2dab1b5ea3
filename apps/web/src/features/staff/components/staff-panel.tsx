import {
  Alert,
  Badge,
  Button,
  Checkbox,
  CloseButton,
  Group,
  NativeSelect,
  Paper,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { AGENT_SCOPED_PRIVILEGES, type StaffAccount, type StaffRolesPrivileges } from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { isApiError } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { formatDateTime } from '../../../lib/format';
import { useSession } from '../../../lib/session';
import {
  getRolesPrivilegesQueryOptions,
  getStaffAccountQueryOptions,
  useChangeStaffRole,
  useDeactivateStaff,
  useReactivateStaff,
  useSetStaffPrivileges,
} from '../api/staff';
import { privilegeLabel } from '../privilege-label';

function showError(error: unknown) {
  const { title, message } = describeError(error);
  notifications.show({ color: 'red', title, message, autoClose: 10_000, withBorder: true });
}

/** What every role or privilege change does, in the toast that confirms it (decision 157). */
const APPLIES_NEXT_SIGN_IN =
  'Their open sessions were ended: the change applies from their next sign-in (and its permission checks).';

function RoleForm({ account, options, own }: { account: StaffAccount; options: StaffRolesPrivileges; own: boolean }) {
  const [roleId, setRoleId] = useState(String(account.role_id));
  const change = useChangeStaffRole();
  const chosen = options.roles.find((r) => String(r.id) === roleId);

  function save() {
    change.mutate(
      { email: account.email, roleId: Number(roleId) },
      {
        onSuccess: (info) =>
          notifications.show({
            color: 'green',
            title: 'Role saved',
            message: `${account.name} is now ${info.role}. ${APPLIES_NEXT_SIGN_IN}`,
            autoClose: 10_000,
            withBorder: true,
          }),
        onError: showError,
      },
    );
  }

  return (
    <Stack gap="xs" component="section" aria-labelledby="staff-role-title">
      <Title order={3} size="h5" id="staff-role-title">
        Role
      </Title>
      <Group align="flex-end" gap="sm">
        <NativeSelect
          label="Role"
          data={options.roles.map((r) => ({ value: String(r.id), label: r.name }))}
          value={roleId}
          onChange={(e) => setRoleId(e.currentTarget.value)}
          disabled={own}
          w={240}
        />
        <Button onClick={save} loading={change.isPending} disabled={own || roleId === String(account.role_id)}>
          Save role
        </Button>
      </Group>
      {own ? (
        <Text size="sm" c="dimmed">
          Another Admin changes your own role.
        </Text>
      ) : (
        chosen && (
          <Text size="sm" c="dimmed">
            {chosen.name} grants: {chosen.privileges.map(privilegeLabel).join(', ') || 'nothing'}.
          </Text>
        )
      )}
    </Stack>
  );
}

function PrivilegesForm({ account, options }: { account: StaffAccount; options: StaffRolesPrivileges }) {
  const [extras, setExtras] = useState<string[]>(account.additional_privileges);
  const save = useSetStaffPrivileges();
  const role = options.roles.find((r) => r.id === account.role_id);
  const viaRole = new Set(role?.privileges ?? []);
  const unchanged = [...extras].sort().join(',') === [...account.additional_privileges].sort().join(',');

  function submit() {
    const privilegeIds = options.privileges.filter((p) => extras.includes(p.name)).map((p) => p.id);
    save.mutate(
      { email: account.email, privilegeIds },
      {
        onSuccess: (info) =>
          notifications.show({
            color: 'green',
            title: 'Extra privileges saved',
            message: `${account.name}'s extra privileges: ${
              info.additional_privileges.map(privilegeLabel).join(', ') || 'none'
            }. ${APPLIES_NEXT_SIGN_IN}`,
            autoClose: 10_000,
            withBorder: true,
          }),
        onError: showError,
      },
    );
  }

  return (
    <Stack gap="xs" component="section" aria-labelledby="staff-privileges-title">
      <Title order={3} size="h5" id="staff-privileges-title">
        Extra privileges
      </Title>
      <Text size="sm" c="dimmed">
        What {account.name} may do beyond the {account.role} role. Privileges the role already grants are ticked and
        cannot be changed here.
      </Text>
      {account.agent_scoped && (
        <Alert color="yellow" title="An agent's account">
          {account.role} sessions hold only the agent privileges (orders, customer details and features, promotions to
          read), whatever is ticked here (decision 140).
        </Alert>
      )}
      <Checkbox.Group
        label="Privileges"
        value={[...new Set([...extras, ...viaRole])]}
        // The role's own privileges are ticked and cannot be unticked; an extra the role also grants stays an extra.
        onChange={(value) => setExtras(value.filter((name) => !viaRole.has(name) || extras.includes(name)))}
      >
        <Stack gap={6} mt={4}>
          {options.privileges.map((p) => {
            const granted = viaRole.has(p.name);
            const noEffect =
              account.agent_scoped && !granted && !(AGENT_SCOPED_PRIVILEGES as readonly string[]).includes(p.name);
            return (
              <Checkbox
                key={p.id}
                value={p.name}
                label={privilegeLabel(p.name)}
                description={
                  granted ? `Granted by the ${account.role} role` : noEffect ? 'No effect for an agent' : undefined
                }
                disabled={granted}
              />
            );
          })}
        </Stack>
      </Checkbox.Group>
      <Group>
        <Button onClick={submit} loading={save.isPending} disabled={unchanged}>
          Save privileges
        </Button>
      </Group>
    </Stack>
  );
}

function ActiveControl({ account, own }: { account: StaffAccount; own: boolean }) {
  const [asking, setAsking] = useState(false);
  const deactivate = useDeactivateStaff();
  const reactivate = useReactivateStaff();
  const busy = deactivate.isPending || reactivate.isPending;

  function confirm() {
    const done = (title: string, message: string) => {
      setAsking(false);
      notifications.show({ color: 'green', title, message, autoClose: 8000, withBorder: true });
    };
    const onError = (error: unknown) => {
      setAsking(false);
      showError(error);
    };
    if (account.active)
      deactivate.mutate(account.id, {
        onSuccess: () =>
          done('Account deactivated', `${account.name} can no longer sign in; their open sessions were ended.`),
        onError,
      });
    else
      reactivate.mutate(account.id, {
        onSuccess: () => done('Account reactivated', `${account.name} can sign in again.`),
        onError,
      });
  }

  if (own && account.active)
    return (
      <Text size="sm" c="dimmed">
        You cannot deactivate your own account. Another Admin can.
      </Text>
    );
  return (
    <>
      <Group>
        <Button variant="light" color={account.active ? 'red' : 'green'} onClick={() => setAsking(true)}>
          {account.active ? 'Deactivate…' : 'Reactivate…'}
        </Button>
      </Group>
      <ConfirmDialog
        opened={asking}
        title={account.active ? `Deactivate ${account.name}?` : `Reactivate ${account.name}?`}
        message={
          account.active
            ? `${account.name} (${account.email}) will no longer be able to sign in, and every session they have open ends now. You can reactivate the account later.`
            : `${account.name} (${account.email}) will be able to sign in again, with the ${account.role} role and the extra privileges shown.`
        }
        confirmLabel={account.active ? 'Deactivate account' : 'Reactivate account'}
        color={account.active ? 'red' : undefined}
        busy={busy}
        onConfirm={confirm}
        onClose={() => setAsking(false)}
      />
    </>
  );
}

/**
 * One staff account beside the list (decision 157): who it is, the role (Save), the extra privileges as a checklist
 * (Save) — both through the §7 PUT, which ends the person's sessions — and Deactivate / Reactivate with a question
 * first. An Admin changes neither the role nor the active state of their own account here.
 */
export function StaffPanel({ staffId, onClose }: { readonly staffId: number; readonly onClose: () => void }) {
  const detail = useQuery({ ...getStaffAccountQueryOptions(staffId), meta: { silentError: true } });
  const options = useQuery(getRolesPrivilegesQueryOptions());
  const { session } = useSession();
  const account = detail.data;
  const own = !!account && !!session && account.email.toLowerCase() === session.email.toLowerCase();

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="staff-title">
      <Group justify="space-between" align="flex-start" mb="sm">
        <Title order={2} size="h3" id="staff-title">
          {account ? account.name : `Staff member ${staffId}`}
        </Title>
        <CloseButton aria-label="Close the staff member" onClick={onClose} />
      </Group>
      {detail.isPending && <Text c="dimmed">Loading the account…</Text>}
      {detail.isError && (
        <Alert color="red" title={describeError(detail.error).title}>
          {isApiError(detail.error) && detail.error.status === 404
            ? `Staff account ${staffId} was not found. Open the account from the list.`
            : describeError(detail.error).message}
        </Alert>
      )}
      {account && (
        <Stack gap="lg">
          <Group gap="sm">
            <Text size="sm">{account.email}</Text>
            <Badge color={account.active ? 'green' : 'gray'} variant="light">
              {account.active ? 'Active' : 'Deactivated'}
            </Badge>
            <Text size="sm" c="dimmed">
              Last sign-in: {account.last_sign_in_at ? formatDateTime(account.last_sign_in_at) : 'never'}
            </Text>
          </Group>
          {options.data ? (
            <>
              <RoleForm key={`role-${account.role_id}`} account={account} options={options.data} own={own} />
              <PrivilegesForm
                key={`privileges-${account.role_id}-${account.additional_privileges.join(',')}`}
                account={account}
                options={options.data}
              />
            </>
          ) : (
            <Text c="dimmed">{options.isError ? 'The roles could not be read.' : 'Loading the roles…'}</Text>
          )}
          <ActiveControl account={account} own={own} />
        </Stack>
      )}
    </Paper>
  );
}
