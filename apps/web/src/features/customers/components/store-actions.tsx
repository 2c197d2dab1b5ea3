import { Button, Code, Group, Modal, NativeSelect, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { checkMidFormat, MID_MAX_DIGITS, MID_MIN_DIGITS, type StoreRecord } from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { useLinkableTerminals, usePushLicense, useSendPaymentUpdateLink, useValidateMid } from '../api/actions';
import type { CustomerPermissions } from '../api/permissions';
import { notifySuccess } from '../lib/notify';
import { editPagePath } from '../lib/url-state';
import { EditStoreDialog } from './edit-store-dialog';
import { StoreAddressDialog } from './store-address-dialog';

export interface StoreActionsProps {
  readonly store: StoreRecord;
  readonly permissions: CustomerPermissions;
}

type Dialog = 'store' | 'address' | 'link' | 'license' | 'mid' | null;

/**
 * What can be done to the selected store — only what the signed-in user may do (the server checks again):
 * edit store info and address, the edit pages (payment method, payment plan, features), the
 * payment-update link e-mail, push license and MID validation.
 */
export function StoreActions({ store, permissions }: StoreActionsProps) {
  const [dialog, setDialog] = useState<Dialog>(null);
  const close = () => setDialog(null);
  const { canEdit, canEditFeatures, canEditLimitedFeatures } = permissions;
  const canFeatures = canEditFeatures || canEditLimitedFeatures;
  const canPush = canEdit || canFeatures;
  if (!canEdit && !canFeatures) return null;
  const id = store.store_id;
  const customerId = store.customer_id;

  return (
    <Paper withBorder p="sm" component="section" aria-labelledby="store-actions-title">
      <Title order={2} size="h5" id="store-actions-title" mb="xs">
        Store {id} actions
      </Title>
      <Group gap="xs">
        {canEdit && (
          <>
            <Button size="xs" variant="light" onClick={() => setDialog('store')}>
              Edit store
            </Button>
            <Button size="xs" variant="light" onClick={() => setDialog('address')}>
              Edit address
            </Button>
            <Button size="xs" variant="default" component={Link} to={editPagePath('editpayment', customerId, id)}>
              Edit payment method
            </Button>
            <Button size="xs" variant="default" component={Link} to={editPagePath('editpaymentplan', customerId, id)}>
              Edit payment plan
            </Button>
            <Button size="xs" variant="default" component={Link} to={`/additional-items/${customerId}/${id}`}>
              Add items
            </Button>
          </>
        )}
        {canFeatures && (
          <Button size="xs" variant="default" component={Link} to={editPagePath('editplan', customerId, id)}>
            Edit features
          </Button>
        )}
        {canEdit && (
          <Button size="xs" variant="default" onClick={() => setDialog('link')}>
            Send payment-update link
          </Button>
        )}
        {canPush && (
          <Button size="xs" variant="default" onClick={() => setDialog('license')}>
            Push license
          </Button>
        )}
        {canEdit && (
          <Button size="xs" variant="default" onClick={() => setDialog('mid')}>
            Validate MID
          </Button>
        )}
      </Group>
      {canEdit && <EditStoreDialog store={store} opened={dialog === 'store'} onClose={close} />}
      {canEdit && <StoreAddressDialog store={store} opened={dialog === 'address'} onClose={close} />}
      {canEdit && <SendLinkDialog store={store} opened={dialog === 'link'} onClose={close} />}
      {canPush && <PushLicenseDialog store={store} opened={dialog === 'license'} onClose={close} />}
      {canEdit && <ValidateMidDialog store={store} opened={dialog === 'mid'} onClose={close} />}
    </Paper>
  );
}

interface DialogProps {
  readonly store: StoreRecord;
  readonly opened: boolean;
  readonly onClose: () => void;
}

function PushLicenseDialog({ store, opened, onClose }: DialogProps) {
  const push = usePushLicense();
  return (
    <ConfirmDialog
      opened={opened}
      title="Push license"
      message={`Send the license state of store ${store.store_id} (${store.doing_business_as}) to its terminals now?`}
      confirmLabel="Push license"
      busy={push.isPending}
      onClose={onClose}
      onConfirm={() =>
        push.mutate(store.store_id, {
          onSuccess: () => {
            notifySuccess(
              `The license push for store ${store.store_id} is queued: it is sent within a minute (Admin → Jobs shows it).`,
              'Queued',
            );
            onClose();
          },
        })
      }
    />
  );
}

function SendLinkDialog({ store, opened, onClose }: DialogProps) {
  const terminals = useLinkableTerminals(store.customer_id, store.store_id, opened);
  const [chosen, setChosen] = useState('');
  const send = useSendPaymentUpdateLink();
  const options = (terminals.data ?? []).map((t) => ({
    value: t.elmer_id,
    label: `${t.elmer_id} (${t.status_label})`,
  }));
  const elmerId = chosen || options[0]?.value || '';

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!elmerId) return;
    send.mutate(
      { elmer_id: elmerId },
      {
        onSuccess: () => {
          notifySuccess(
            `The payment-update link for store ${store.store_id} is queued: the merchant is e-mailed within a minute.`,
            'Queued',
          );
          onClose();
        },
      },
    );
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Send payment-update link" centered>
      <form onSubmit={submit} noValidate>
        <Stack gap="sm">
          <Text size="sm">
            E-mails the merchant of store {store.store_id} a link to update the payment method (valid 7 days; an earlier
            link stops working).
          </Text>
          {terminals.isSuccess && options.length === 0 ? (
            <Text c="red" size="sm" role="alert">
              This store has no terminal to send the link for.
            </Text>
          ) : (
            <NativeSelect
              label="Terminal"
              description="The link names the store through one of its terminals."
              value={elmerId}
              onChange={(e) => setChosen(e.currentTarget.value)}
              data={
                options.length > 0
                  ? options
                  : [{ value: '', label: terminals.isError ? 'Terminals could not be loaded' : 'Loading terminals…' }]
              }
            />
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose} disabled={send.isPending}>
              Cancel
            </Button>
            <Button type="submit" loading={send.isPending} disabled={!elmerId}>
              Send link
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}

function ValidateMidDialog({ store, opened, onClose }: DialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title="Validate MID" centered>
      {opened && <ValidateMidForm store={store} onClose={onClose} />}
    </Modal>
  );
}

function ValidateMidForm({ store, onClose }: { readonly store: StoreRecord; readonly onClose: () => void }) {
  const [mid, setMid] = useState(store.mid ?? '');
  const [error, setError] = useState<string | null>(null);
  const validate = useValidateMid();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The format is checked here (domain rule, decision 030); only a well-formed MID goes to the CRM.
    const format = checkMidFormat(mid);
    if (!format.ok) {
      setError(format.reason);
      return;
    }
    setError(null);
    validate.mutate({ MID: format.mid, storeid: store.store_id });
  }

  const answer = validate.data;
  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm">
        <TextInput
          label="MID"
          description={`The merchant id the processor gave the store (${MID_MIN_DIGITS} to ${MID_MAX_DIGITS} digits).`}
          value={mid}
          onChange={(e) => {
            setMid(e.currentTarget.value);
            validate.reset();
            setError(null);
          }}
          error={error}
          inputMode="numeric"
          autoComplete="off"
        />
        {validate.isPending && (
          <Text size="sm" c="dimmed" role="status">
            Asking the CRM…
          </Text>
        )}
        {answer && (
          <Text size="sm" role="status" c={answer.valid ? 'green' : 'red'}>
            {answer.valid ? (
              <>
                MID <Code>{answer.MID}</Code> is valid.
              </>
            ) : (
              <>
                MID <Code>{answer.MID}</Code> is not valid{answer.reason ? `: ${answer.reason}` : '.'}
              </>
            )}
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
          <Button type="submit" loading={validate.isPending}>
            Validate
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
