import { Button, Group, Modal, Text } from '@mantine/core';

export interface ConfirmDialogProps {
  readonly opened: boolean;
  readonly title: string;
  readonly message: string;
  /** The confirming button's name, e.g. 'Retry job'. */
  readonly confirmLabel: string;
  readonly busy?: boolean;
  readonly onConfirm: () => void;
  readonly onClose: () => void;
}

/** A yes/no question before an action that changes something (a modal dialog named by its title). */
export function ConfirmDialog({ opened, title, message, confirmLabel, busy = false, onConfirm, onClose }: ConfirmDialogProps) {
  return (
    <Modal opened={opened} onClose={onClose} title={title} centered>
      <Text mb="lg">{message}</Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose} disabled={busy}>
          Keep as is
        </Button>
        <Button color="red" onClick={onConfirm} loading={busy}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
