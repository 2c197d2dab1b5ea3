import { Button, Group, Modal, Text } from '@mantine/core';
import type { ReactNode } from 'react';

export interface ConfirmDialogProps {
  readonly opened: boolean;
  readonly title: string;
  readonly message: ReactNode;
  /** The confirming button's name, e.g. 'Retry job'. */
  readonly confirmLabel: string;
  /** The button that closes the dialog without doing anything (default 'Cancel'). */
  readonly cancelLabel?: string;
  readonly busy?: boolean;
  /** 'red' for destructive actions. */
  readonly color?: string;
  readonly onConfirm: () => void;
  readonly onClose: () => void;
}

/** A yes/no question before an action that changes something (a modal dialog named by its title). */
export function ConfirmDialog({
  opened,
  title,
  message,
  confirmLabel,
  cancelLabel = 'Cancel',
  busy = false,
  color,
  onConfirm,
  onClose,
}: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Text mb="lg">{message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={busy}>
          {cancelLabel}
        </Button>
        <Button color={color} onClick={onConfirm} loading={busy}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
