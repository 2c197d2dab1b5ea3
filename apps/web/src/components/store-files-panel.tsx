import {
  Anchor,
  Button,
  Group,
  Image,
  NativeSelect,
  Paper,
  Stack,
  Table,
  Text,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  STORE_FILE_KIND_LABELS,
  STORE_FILE_KINDS,
  STORE_FILE_UPLOAD_KIND,
  uploadAccept,
  uploadTypeMessage,
  validateUpload,
  type StoreFile,
  type StoreFileKind,
} from '@pos/domain';
import { useState, type ReactNode } from 'react';
import {
  storeFileUrl,
  useDeleteStoreFile,
  useStoreFiles,
  useUploadStoreFile,
  type StoreFileOwner,
} from '../api/store-files';
import { describeError } from '../lib/error-message';
import { formatDateTime } from '../lib/format';
import { ConfirmDialog } from './confirm-dialog';
import { FilePicker, formatBytes, type PickedFile } from './file-picker';

export interface StoreFilesPanelProps {
  /** Whose files: the store's, or a new merchant's order's until Complete gives them the new store. */
  readonly owner: StoreFileOwner;
  /** A sentence under the title (the order flow says where the files go). */
  readonly description?: ReactNode;
  /** May upload (customer_details_edit, or the order flow's reps). */
  readonly canUpload: boolean;
  /** May delete (customer_details_edit). */
  readonly canDelete: boolean;
}

/** A picked file (base64) back to a File for the multipart upload. */
function toFile(picked: PickedFile): File {
  const binary = atob(picked.base64);
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  return new File([bytes], picked.name, { type: picked.type || 'application/octet-stream' });
}

function notifyError(error: unknown): void {
  const { title, message } = describeError(error);
  notifications.show({ color: 'red', title, message, autoClose: 8000, withBorder: true });
}

/**
 * A store's files (decision 160): store pictures, business licenses and reseller files with a preview of each image,
 * who uploaded it and when, Download and Delete (asked first); and the upload form — what the file is, the file, Upload.
 * The customer page's store panel and the order flow's store-information step both show it (a new merchant's: the
 * order's files).
 */
export function StoreFilesPanel({ owner, description, canUpload, canDelete }: StoreFilesPanelProps) {
  const files = useStoreFiles(owner);
  const upload = useUploadStoreFile(owner);
  const remove = useDeleteStoreFile(owner);
  const ownerName = `${owner.kind} ${owner.id}`;
  const [kind, setKind] = useState<StoreFileKind>('store_picture');
  const [picked, setPicked] = useState<PickedFile | null>(null);
  const [pickerKey, setPickerKey] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);
  const [deleting, setDeleting] = useState<StoreFile | null>(null);
  const uploadKind = STORE_FILE_UPLOAD_KIND[kind];
  const titleId = `store-files-${owner.kind}-${owner.id}`;

  const send = () => {
    if (!picked) {
      setProblem('Choose a file to upload.');
      return;
    }
    const check = validateUpload({
      kind: uploadKind,
      fileName: picked.name,
      contentType: picked.type,
      size: picked.size,
    });
    if (!check.ok) {
      setProblem(check.message);
      return;
    }
    setProblem(null);
    upload.mutate(
      { kind, file: toFile(picked) },
      {
        onSuccess: (saved) => {
          notifications.show({
            color: 'green',
            title: 'Uploaded',
            message: `${STORE_FILE_KIND_LABELS[saved.kind]} ${saved.file_name} was added to ${ownerName}.`,
            autoClose: 5000,
            withBorder: true,
          });
          setPicked(null);
          setPickerKey((k) => k + 1);
        },
        onError: (error) => {
          const { message } = describeError(error);
          setProblem(message);
          notifyError(error);
        },
      },
    );
  };

  const confirmDelete = () => {
    if (!deleting) return;
    const gone = deleting;
    remove.mutate(gone.id, {
      onSuccess: () => {
        notifications.show({
          color: 'green',
          title: 'Deleted',
          message: `${gone.file_name} was removed from ${ownerName}.`,
          autoClose: 5000,
          withBorder: true,
        });
        setDeleting(null);
      },
      onError: (error) => {
        setDeleting(null);
        notifyError(error);
      },
    });
  };

  const items = files.data ?? [];
  return (
    <Paper withBorder p="sm" component="section" aria-labelledby={titleId}>
      <Title order={2} size="h5" id={titleId} mb="xs">
        Store files
      </Title>
      <Stack gap="sm">
        {description && <Text size="sm">{description}</Text>}
        {files.isPending && <Text size="sm">Loading the store's files…</Text>}
        {files.isError && (
          <Text size="sm" c="red" role="alert">
            {describeError(files.error).message}
          </Text>
        )}
        {files.isSuccess && items.length === 0 && (
          <Text size="sm" c="dimmed">
            No store pictures, business licenses or reseller files yet.
          </Text>
        )}
        {items.length > 0 && (
          <Table.ScrollContainer minWidth={640}>
            <Table verticalSpacing={4} fz="sm">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th>Preview</Table.Th>
                  <Table.Th>File</Table.Th>
                  <Table.Th>Kind</Table.Th>
                  <Table.Th>Uploaded by</Table.Th>
                  <Table.Th>Uploaded</Table.Th>
                  <Table.Th>
                    <VisuallyHidden>Actions</VisuallyHidden>
                  </Table.Th>
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {items.map((f) => (
                  <Table.Tr key={f.id}>
                    <Table.Td>
                      {f.previewable ? (
                        <Image
                          src={storeFileUrl(owner, f, 'thumb')}
                          alt={f.file_name}
                          w={64}
                          h={48}
                          fit="cover"
                          radius="sm"
                        />
                      ) : (
                        <Text size="xs" c="dimmed">
                          {f.content_type === 'application/pdf' ? 'PDF' : 'No preview'}
                        </Text>
                      )}
                    </Table.Td>
                    <Table.Td>
                      {f.file_name}
                      <Text size="xs" c="dimmed">
                        {formatBytes(f.size)}
                      </Text>
                    </Table.Td>
                    <Table.Td>{STORE_FILE_KIND_LABELS[f.kind]}</Table.Td>
                    <Table.Td>
                      {f.uploaded_by_name}
                      <Text size="xs" c="dimmed">
                        {f.uploaded_by_email}
                      </Text>
                    </Table.Td>
                    <Table.Td>{formatDateTime(f.uploaded_at)}</Table.Td>
                    <Table.Td>
                      <Group gap="xs" wrap="nowrap">
                        <Anchor href={storeFileUrl(owner, f)} size="sm" aria-label={`Download ${f.file_name}`}>
                          Download
                        </Anchor>
                        {canDelete && (
                          <Button
                            size="compact-xs"
                            variant="subtle"
                            color="red"
                            aria-label={`Delete ${f.file_name}`}
                            onClick={() => setDeleting(f)}
                          >
                            Delete
                          </Button>
                        )}
                      </Group>
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          </Table.ScrollContainer>
        )}
        {canUpload && (
          <Group align="flex-end" gap="sm">
            <NativeSelect
              label="Kind of file"
              value={kind}
              onChange={(e) => {
                setKind(e.currentTarget.value as StoreFileKind);
                setProblem(null);
              }}
              data={STORE_FILE_KINDS.map((k) => ({ value: k, label: STORE_FILE_KIND_LABELS[k] }))}
            />
            <FilePicker
              key={pickerKey}
              label="File"
              description={`${uploadTypeMessage(uploadKind)} At most 5 MB.`}
              accept={uploadAccept(uploadKind)}
              error={problem ?? undefined}
              disabled={upload.isPending}
              onChange={(chosen) => {
                setPicked(chosen[0] ?? null);
                setProblem(null);
              }}
            />
            <Button onClick={send} loading={upload.isPending}>
              Upload
            </Button>
          </Group>
        )}
      </Stack>
      <ConfirmDialog
        opened={deleting !== null}
        title="Delete this file?"
        message={deleting ? `${deleting.file_name} will be removed from ${ownerName}. This cannot be undone.` : ''}
        confirmLabel="Delete"
        color="red"
        busy={remove.isPending}
        onConfirm={confirmDelete}
        onClose={() => setDeleting(null)}
      />
    </Paper>
  );
}
