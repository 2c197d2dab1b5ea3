import { Button, Group, Modal, Stack, Text } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';

export interface ActionDialogProps {
  readonly opened: boolean;
  /** Names the dialog, e.g. 'Retire terminal 3000008?'. */
  readonly title: string;
  readonly message?: ReactNode;
  /** The confirming button's name, e.g. 'Retire terminal'. */
  readonly confirmLabel: string;
  /** 'red' for an action that cannot be undone. */
  readonly color?: string;
  readonly busy?: boolean;
  /** A dialog that only shows something: one button (confirmLabel) that closes it. */
  readonly closeOnly?: boolean;
  /** Form fields of the action (a reason, a serial number…). */
  readonly children?: ReactNode;
  /** Return false from a caller's own check to keep the dialog open. */
  readonly onConfirm: () => void;
  readonly onClose: () => void;
}

/**
 * A question (and its fields) before an action that changes something: a modal dialog named by its title,
 * submitted by its confirming button or Enter; "Keep as is" closes it without doing anything.
 */
export function ActionDialog({
  opened,
  title,
  message,
  confirmLabel,
  color,
  busy = false,
  closeOnly = false,
  children,
  onConfirm,
  onClose,
}: ActionDialogProps) {
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (!busy) onConfirm();
  }
  return (
    <Modal
      opened={opened}
      onClose={busy ? () => undefined : onClose}
      title={title}
      centered
      size={closeOnly ? 'lg' : 'md'}
    >
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          {typeof message === 'string' ? <Text>{message}</Text> : message}
          {children}
          <Group justify="flex-end">
            {!closeOnly && (
              <Button variant="default" onClick={onClose} disabled={busy}>
                Keep as is
              </Button>
            )}
            <Button type="submit" color={color} loading={busy}>
              {confirmLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
