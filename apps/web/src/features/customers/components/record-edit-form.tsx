import { Button, Group, Modal, NativeSelect, Text, TextInput } from '@mantine/core';
import { useState, type FormEvent, type ReactNode } from 'react';
import type { z } from 'zod';
import { changedFields, checkBody, serverFields, type FieldErrors } from '../lib/edit-form';
import { humanize } from '../../../lib/format';
import { isConflict } from '../../../lib/api';
import { notifySuccess } from '../lib/notify';

const NOTHING_CHANGED = 'Nothing changed.';

export interface EditDialogProps {
  readonly title: string;
  readonly opened: boolean;
  readonly onClose: () => void;
  /** The form; mounted only while the dialog is open, so each opening starts from the current record. */
  readonly children: ReactNode;
}

/** The modal of an edit form (edit customer, edit store, store address). */
export function EditDialog({ title, opened, onClose, children }: EditDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} size="lg" centered>
      {opened && children}
    </Modal>
  );
}

/** Callbacks the edit hands to the mutation's `mutate`. */
export interface SaveCallbacks {
  readonly onSuccess: () => void;
  readonly onError: (error: Error) => void;
}

export interface RecordEditOptions<K extends string, S extends z.ZodType> {
  readonly fields: readonly K[];
  /** The record's values of `fields` when the dialog opened. */
  readonly original: Readonly<Record<K, string | null>>;
  /** The record's version when the dialog opened (optimistic concurrency). */
  readonly version: number;
  /** The contract's request schema: the body is checked before it is sent. */
  readonly schema: S;
  /** Send the checked body (`mutation.mutate(body, callbacks)`). */
  readonly save: (body: z.input<S>, callbacks: SaveCallbacks) => void;
  /** The toast after a save, e.g. 'Store 500002 was updated.'. */
  readonly savedMessage: string;
  readonly onClose: () => void;
}

/**
 * The state and submit of an edit dialog for one record: text drafts of `fields`, only the changed ones sent
 * with the version the edit started from; the contract's field messages, then the server's; a save closes
 * the dialog with a toast, and so does a version conflict (the customer is reloaded; the toast says why).
 */
export function useRecordEdit<K extends string, S extends z.ZodType>({
  fields,
  original,
  version,
  schema,
  save,
  savedMessage,
  onClose,
}: RecordEditOptions<K, S>) {
  // What the edit starts from is fixed when the dialog opens: a refresh meanwhile must not move the version.
  const [start] = useState(() => ({ original, version }));
  const [draft, setDraft] = useState<Record<K, string>>(
    () => Object.fromEntries(fields.map((f) => [f, start.original[f] ?? ''])) as Record<K, string>,
  );
  const [errors, setErrors] = useState<FieldErrors>({});
  const [message, setMessage] = useState<string | null>(null);

  function set(field: K, value: string) {
    setDraft((d) => ({ ...d, [field]: value }));
  }

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const changes = changedFields(draft, start.original);
    if (Object.keys(changes).length === 0) {
      setMessage(NOTHING_CHANGED);
      return;
    }
    const checked = checkBody(schema, { version: start.version, ...changes });
    if (!checked.ok) {
      setErrors(checked.fields);
      setMessage(checked.message);
      return;
    }
    setErrors({});
    setMessage(null);
    save(checked.data, {
      onSuccess: () => {
        notifySuccess(savedMessage);
        onClose();
      },
      onError: (error) => {
        if (isConflict(error)) onClose();
        else setErrors(serverFields(error));
      },
    });
  }

  /** A text box for `field`. */
  function input(field: K, label: string, extra: { required?: boolean; type?: string; description?: string } = {}) {
    return (
      <TextInput
        label={label}
        required={extra.required}
        type={extra.type}
        description={extra.description}
        value={draft[field]}
        onChange={(e) => set(field, e.currentTarget.value)}
        error={errors[field]}
      />
    );
  }

  /** The record's status as a select of `values` ('under_transfer' shows as 'Under transfer'). */
  function statusSelect(field: K, values: readonly string[]) {
    return (
      <NativeSelect
        label="Status"
        value={draft[field]}
        onChange={(e) => set(field, e.currentTarget.value)}
        error={errors[field]}
        data={values.map((s) => ({ value: s, label: humanize(s) }))}
      />
    );
  }

  return { draft, errors, message, submit, input, statusSelect };
}

export interface EditFormFooterProps {
  /** 'Nothing changed.' (dimmed) or what is wrong (red, an alert). */
  readonly message: string | null;
  readonly busy: boolean;
  /** The submit button's name, e.g. 'Save store'. */
  readonly saveLabel: string;
  readonly onClose: () => void;
}

/** The end of an edit form: its message, Cancel, and the submit button. */
export function EditFormFooter({ message, busy, saveLabel, onClose }: EditFormFooterProps) {
  return (
    <>
      {message && (
        <Text size="sm" c={message === NOTHING_CHANGED ? 'dimmed' : 'red'} role="alert">
          {message}
        </Text>
      )}
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={busy}>
          Cancel
        </Button>
        <Button type="submit" loading={busy}>
          {saveLabel}
        </Button>
      </Group>
    </>
  );
}
