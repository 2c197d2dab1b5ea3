import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Input,
  NativeSelect,
  Paper,
  Radio,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  type MantineColor,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  CERTIFICATE_EXPIRY_WARNING_DAYS,
  CERTIFICATE_STATE,
  TAX_CERTIFICATE_KIND_LABELS,
  TAX_CERTIFICATE_KINDS,
  taxCertificateCreate,
  uploadAccept,
  type TaxCertificate,
  type TaxCertificateKind,
  isMerchantSearchReady,
  MERCHANT_SEARCH_HINT,
} from '@pos/domain';
import { useQuery } from '@tanstack/react-query';
import { getPermissionsQueryOptions } from '../../../api/permissions';
import { useId, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ConfirmDialog } from '../../../components/confirm-dialog';
import { DataTable } from '../../../components/list/data-table';
import { apiUrl, isApiError } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { formatDate } from '../../../lib/format';
import {
  expiringCertificatesQueryOptions,
  findStoresQueryOptions,
  storeCertificatesQueryOptions,
  useRecordCertificate,
  useRevokeCertificate,
  useUploadCertificateFile,
} from '../api/arizona';

const KIND_OPTIONS = TAX_CERTIFICATE_KINDS.map((k) => ({ value: k, label: TAX_CERTIFICATE_KIND_LABELS[k] }));
const STATUS_LABELS: Readonly<Record<TaxCertificate['status'], string>> = {
  valid: 'Valid',
  expiring: 'Expiring soon',
  expired: 'Expired',
  revoked: 'Revoked',
};
const STATUS_COLORS: Readonly<Record<TaxCertificate['status'], MantineColor>> = {
  valid: 'green',
  expiring: 'yellow',
  expired: 'gray',
  revoked: 'red',
};

interface ChosenStore {
  readonly id: number;
  readonly name: string;
  readonly customer: string;
  readonly fedTaxId: string | null;
}

type Errors = Partial<Record<string, string>>;

const EDIT_PRIVILEGES = ['customer_details_edit'] as const;

function CertificateRows(props: {
  readonly items: readonly TaxCertificate[];
  readonly showStore: boolean;
  /** Absent for a session that may only look (no customer-edit privilege): no Revoke button. */
  readonly onRevoke?: (c: TaxCertificate) => void;
}) {
  return props.items.map((c) => (
    <Table.Tr key={c.id}>
      {props.showStore && (
        <Table.Td>
          {c.store_name ?? '—'} (store {c.store_id}) — {c.customer_name}
        </Table.Td>
      )}
      <Table.Td>{TAX_CERTIFICATE_KIND_LABELS[c.kind]}</Table.Td>
      <Table.Td>{c.certificate_number}</Table.Td>
      <Table.Td>{formatDate(c.expires_on)}</Table.Td>
      <Table.Td>
        <Badge color={STATUS_COLORS[c.status]} variant="light">
          {STATUS_LABELS[c.status]}
        </Badge>
      </Table.Td>
      <Table.Td>
        {c.upload_id !== null ? (
          <Anchor href={apiUrl('/api/uploads/{id}/{token}', { id: c.upload_id })} download>
            {c.file_name ?? 'File'}
          </Anchor>
        ) : (
          '—'
        )}
      </Table.Td>
      {props.onRevoke && (
        <Table.Td>
          {c.status !== 'revoked' && c.status !== 'expired' && (
            <Button
              size="xs"
              variant="subtle"
              color="red"
              onClick={() => props.onRevoke?.(c)}
              aria-label={`Revoke certificate ${c.certificate_number}`}
            >
              Revoke
            </Button>
          )}
        </Table.Td>
      )}
    </Table.Tr>
  ));
}

/**
 * #/arizona (session; decision 127): record an Arizona store's TPT / resale certificate — store, kind, number, expiry
 * and the file —, the store's certificates, and those expiring within 30 days. While a certificate is valid the
 * store's hardware sale is not taxed (order summary, contract, invoice).
 */
export default function ArizonaPage() {
  const [search, setSearch] = useState('');
  const [store, setStore] = useState<ChosenStore | null>(null);
  const [kind, setKind] = useState<TaxCertificateKind>('TPT');
  const [number, setNumber] = useState('');
  const [expiresOn, setExpiresOn] = useState('');
  const [file, setFile] = useState<File | null>(null);
  const [fileKey, setFileKey] = useState(0);
  const [errors, setErrors] = useState<Errors>({});
  const [revoking, setRevoking] = useState<TaxCertificate | null>(null);
  const fileId = useId();
  const revoke = useRevokeCertificate();
  const upload = useUploadCertificateFile();
  const record = useRecordCertificate();
  const busy = upload.isPending || record.isPending;

  const found = useQuery({
    ...findStoresQueryOptions(search),
    enabled: store === null && isMerchantSearchReady(search),
  });
  const azStores = (found.data ?? []).filter((r) => (r.state ?? '').toUpperCase() === CERTIFICATE_STATE);
  const others = (found.data ?? []).length - azStores.length;
  const ofStore = useQuery({ ...storeCertificatesQueryOptions(store?.id ?? 0), enabled: store !== null });
  const expiring = useQuery(expiringCertificatesQueryOptions(CERTIFICATE_EXPIRY_WARNING_DAYS));

  function choose(id: number) {
    const row = azStores.find((r) => r.store_id === id);
    if (!row) return;
    setStore({
      id,
      name: row.doing_business_as ?? row.store_name ?? `Store ${id}`,
      customer: row.legal_name,
      fedTaxId: row.federal_tax_id,
    });
    setErrors((e) => ({ ...e, store_id: undefined }));
  }

  function submit(e: FormEvent) {
    e.preventDefault();
    if (!mayEdit) return;
    const problems: Errors = {};
    if (!store) problems.store_id = 'Search for the Arizona store and choose it.';
    if (!file) problems.certificate = 'Choose the certificate file (PDF, JPG or PNG).';
    const body = {
      store_id: store?.id ?? 0,
      kind,
      certificate_number: number,
      expires_on: expiresOn,
    };
    // Checked without the file's id: the file is uploaded only once the form passes.
    const parsed = taxCertificateCreate.omit({ upload_id: true }).safeParse(body);
    if (!parsed.success)
      for (const issue of parsed.error.issues) {
        const key = String(issue.path[0] ?? '_');
        if (!(key in problems)) problems[key] = issue.message;
      }
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    upload.mutate(file!, {
      onSuccess: ({ upload_id }) =>
        record.mutate(
          { ...parsed.data!, upload_id },
          {
            onSuccess: (cert) => {
              notifications.show({
                color: 'green',
                title: 'Certificate recorded',
                message: `${TAX_CERTIFICATE_KIND_LABELS[cert.kind]} ${cert.certificate_number} for ${store!.name}, valid until ${formatDate(cert.expires_on)}.`,
              });
              setNumber('');
              setExpiresOn('');
              setFile(null);
              setFileKey((k) => k + 1);
            },
            onError: (error) => {
              if (isApiError(error)) setErrors(error.fields);
              const { title, message } = describeError(error);
              notifications.show({ color: 'red', title, message, autoClose: 8000 });
            },
          },
        ),
      onError: (error) => {
        const said = isApiError(error) ? (error.fields.certificate ?? error.message) : 'The file could not be sent.';
        setErrors({ certificate: said });
        notifications.show({
          color: 'red',
          title: 'Certificate file refused',
          message: `${said} Choose a PDF, JPG or PNG of at most 5 MB and record again.`,
          autoClose: 8000,
        });
      },
    });
  }

  // Looking is for every customer reader; recording and revoking need customer edit (the server's rule too).
  const mayEdit =
    useQuery({ ...getPermissionsQueryOptions(EDIT_PRIVILEGES), select: (f) => f.customer_details_edit === true })
      .data === true;
  const onRevoke = mayEdit ? setRevoking : undefined;
  const columns = ['Kind', 'Number', 'Expires', 'Status', 'File', ...(mayEdit ? ['Action'] : [])];
  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h2">
          Arizona tax certificates
        </Title>
        <Text c="dimmed" size="sm">
          While a store’s Arizona TPT license or resale certificate is valid, its hardware sale is not taxed: on the
          order summary, the contract and the invoice.
        </Text>
      </div>

      <Paper withBorder p="md" component="section" aria-labelledby="record-title">
        <Title order={2} size="h4" id="record-title" mb="sm">
          Record a certificate
        </Title>
        <form onSubmit={submit} aria-label="Record a certificate" noValidate>
          <Stack gap="sm">
            {store ? (
              <Group justify="space-between" align="flex-end">
                <Text>
                  <Text component="span" fw={700}>
                    Store:
                  </Text>{' '}
                  {store.name} (store {store.id}) — {store.customer}
                </Text>
                <Group gap="xs">
                  {store.fedTaxId && (
                    <Anchor
                      component={Link}
                      to={`/neworder/${encodeURIComponent(store.fedTaxId)}/${store.id}`}
                      size="sm"
                    >
                      New order for this store
                    </Anchor>
                  )}
                  <Button variant="subtle" size="xs" onClick={() => setStore(null)}>
                    Change store
                  </Button>
                </Group>
              </Group>
            ) : (
              <>
                <TextInput
                  label="Store"
                  description={`Name, DBA or store id of an Arizona store: ${MERCHANT_SEARCH_HINT}`}
                  value={search}
                  onChange={(e) => setSearch(e.currentTarget.value)}
                  error={errors.store_id}
                  required
                />
                {found.isError && <Alert color="red">{describeError(found.error).message}</Alert>}
                {azStores.length > 0 && (
                  <Radio.Group label="Choose the store" onChange={(v) => choose(Number(v))}>
                    <Stack gap={4} mt={4}>
                      {azStores.map((r) => (
                        <Radio
                          key={r.store_id}
                          value={String(r.store_id)}
                          label={`${r.doing_business_as ?? r.store_name} (store ${r.store_id}, ${r.city ?? ''} AZ) — ${r.legal_name}`}
                        />
                      ))}
                    </Stack>
                  </Radio.Group>
                )}
                {found.isSuccess && azStores.length === 0 && (
                  <Text size="sm" c="dimmed">
                    No Arizona store matches
                    {others > 0 ? ` (${others} store${others === 1 ? '' : 's'} in other states)` : ''}. Try another name
                    or the store id.
                  </Text>
                )}
              </>
            )}
            {!mayEdit && (
              <Text size="sm" c="dimmed">
                You can look up a store’s certificates. Recording or revoking one needs the customer edit privilege.
              </Text>
            )}
            <fieldset disabled={!mayEdit} style={{ border: 0, padding: 0, margin: 0, minWidth: 0 }}>
              <Stack gap="sm">
                <Group grow align="flex-start">
                  <NativeSelect
                    label="Kind"
                    data={KIND_OPTIONS}
                    value={kind}
                    onChange={(e) => setKind(e.currentTarget.value as TaxCertificateKind)}
                    error={errors.kind}
                  />
                  <TextInput
                    label="Certificate number"
                    value={number}
                    onChange={(e) => setNumber(e.currentTarget.value)}
                    error={errors.certificate_number}
                    required
                  />
                  <TextInput
                    label="Expires on"
                    type="date"
                    value={expiresOn}
                    onChange={(e) => setExpiresOn(e.currentTarget.value)}
                    error={errors.expires_on}
                    required
                  />
                </Group>
                <Input.Wrapper
                  id={fileId}
                  label="Certificate file"
                  description="A scan or photo of the certificate: PDF, JPG or PNG, at most 5 MB"
                  error={errors.certificate ?? errors.upload_id}
                  required
                >
                  <div>
                    <input
                      key={fileKey}
                      id={fileId}
                      type="file"
                      accept={uploadAccept('taxCertificate')}
                      onChange={(e) => {
                        setFile(e.currentTarget.files?.[0] ?? null);
                        setErrors((x) => ({ ...x, certificate: undefined, upload_id: undefined }));
                      }}
                    />
                  </div>
                </Input.Wrapper>
                {mayEdit && (
                  <Button type="submit" loading={busy} w="fit-content">
                    Record certificate
                  </Button>
                )}
              </Stack>
            </fieldset>
          </Stack>
        </form>
      </Paper>

      {store && (
        <section aria-label={`Certificates of ${store.name}`}>
          <DataTable
            caption={`Certificates of ${store.name}`}
            columns={columns}
            minWidth={700}
            rowCount={ofStore.data?.items.length ?? 0}
            emptyText={ofStore.isError ? describeError(ofStore.error).message : 'No certificate recorded yet.'}
          >
            <CertificateRows items={ofStore.data?.items ?? []} showStore={false} onRevoke={onRevoke} />
          </DataTable>
        </section>
      )}

      <section aria-label="Expiring certificates">
        <DataTable
          caption={`Certificates expiring within ${CERTIFICATE_EXPIRY_WARNING_DAYS} days`}
          columns={['Store', ...columns]}
          minWidth={900}
          rowCount={expiring.data?.items.length ?? 0}
          emptyText={
            expiring.isError
              ? describeError(expiring.error).message
              : expiring.isPending
                ? 'Loading…'
                : `No certificate expires within ${CERTIFICATE_EXPIRY_WARNING_DAYS} days.`
          }
        >
          <CertificateRows items={expiring.data?.items ?? []} showStore onRevoke={onRevoke} />
        </DataTable>
      </section>

      <ConfirmDialog
        opened={revoking !== null}
        title="Revoke the certificate?"
        message={
          revoking
            ? `Certificate ${revoking.certificate_number} of ${revoking.store_name ?? 'the store'} stops exempting its sales from now on.`
            : ''
        }
        confirmLabel="Revoke certificate"
        color="red"
        busy={revoke.isPending}
        onClose={() => setRevoking(null)}
        onConfirm={() =>
          revoke.mutate(revoking!.id, {
            onSuccess: () => setRevoking(null),
            onError: (error) => {
              const { title, message } = describeError(error);
              notifications.show({ color: 'red', title, message, autoClose: 8000 });
            },
          })
        }
      />
    </Stack>
  );
}
