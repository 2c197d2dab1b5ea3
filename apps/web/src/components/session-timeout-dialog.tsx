import { Button, Group, Modal, Text } from '@mantine/core';

export interface SessionTimeoutDialogProps {
  /** Seconds left before sign-out; the dialog shows while this is not null. */
  readonly secondsLeft: number | null;
  readonly onExtend: () => void;
}

/** The inactivity overlay of spec §4: 'Session Timeout', the countdown and 'Extend my Session'. */
export function SessionTimeoutDialog({ secondsLeft, onExtend }: SessionTimeoutDialogProps) {
  return (
    <Modal
      opened={secondsLeft !== null}
      onClose={onExtend}
      title="Session Timeout"
      centered
      withCloseButton={false}
      closeOnClickOutside={false}
      closeOnEscape={false}
      transitionProps={{ duration: 0 }}
      zIndex={400}
    >
      <Text>Your session will expire in {secondsLeft ?? 0} seconds due to inactivity.</Text>
      <Group justify="flex-end" mt="md">
        <Button onClick={onExtend} data-autofocus>
          Extend my Session
        </Button>
      </Group>
    </Modal>
  );
}
