import { Button, Code, Group, Paper, Text, TextInput, Title } from '@mantine/core';
import { updatePaymentNotificationRequest } from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../../../lib/api';
import { useSendPaymentUpdateLink } from '../api/send-payment-link';

/**
 * 'Send update-payment link': the admin's way to (re)send a merchant the payment-method update link by
 * terminal id (decision 025). The call answers with the job that sends it; the job id is shown as text.
 */
export function SendPaymentLinkPanel() {
  const [elmerId, setElmerId] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const send = useSendPaymentUpdateLink();

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = updatePaymentNotificationRequest.safeParse({ elmer_id: elmerId });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? 'Check the terminal id.');
      return;
    }
    setFieldError(null);
    send.mutate(parsed.data, {
      onError: (error) => {
        // A field error from the server goes next to the field too (the toast says it as well).
        const message = isApiError(error) ? error.fields.elmer_id : undefined;
        if (message) setFieldError(message);
      },
    });
  }

  return (
    <Paper withBorder p="md" component="section" aria-labelledby="send-payment-link-title">
      <Title order={2} size="h4" id="send-payment-link-title" mb={4}>
        Send update-payment link
      </Title>
      <Text size="sm" c="dimmed" mb="sm">
        E-mails the merchant of the terminal&apos;s store a link to update the payment method (valid 7 days; an earlier
        link stops working).
      </Text>
      <form onSubmit={submit} noValidate>
        <Group align="flex-start">
          <TextInput
            label="Terminal id"
            description="The terminal's elmer id"
            value={elmerId}
            onChange={(e) => {
              setElmerId(e.currentTarget.value);
              setFieldError(null);
            }}
            error={fieldError}
            autoComplete="off"
            inputWrapperOrder={['label', 'input', 'description', 'error']}
            w={240}
          />
          <Button type="submit" loading={send.isPending} mt={24}>
            Send link
          </Button>
        </Group>
      </form>
      {send.isSuccess && (
        <Text role="status" size="sm" mt="sm">
          Queued as job <Code>{send.data.jobId}</Code>
        </Text>
      )}
    </Paper>
  );
}
