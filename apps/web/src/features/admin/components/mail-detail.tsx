import { Alert, Anchor, Code, List, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { useMailMessage } from '../api/mail';
import { formatDateTime } from '../../../lib/format';
import { MailStatusBadge } from './mail-status-badge';

/** Only web addresses become anchors; anything else a message carries is shown as text. */
function isWebUrl(url: string): boolean {
  try {
    const { protocol } = new URL(url);
    return protocol === 'https:' || protocol === 'http:';
  } catch {
    return false;
  }
}

/**
 * One message of the Mailbox: subject, recipient, status, its links (real anchors named by their URL, opened
 * in a new tab) and its HTML in a fully sandboxed iframe — no scripts, forms, navigation or same-origin
 * access, so a message can never act inside the back office (decision 026).
 */
export function MailDetail({ id }: { readonly id: number | null }) {
  const message = useMailMessage(id);

  if (id === null) {
    return (
      <Paper withBorder p="md" component="section" aria-label="Message">
        <Text c="dimmed">Choose a message by its subject to read it here.</Text>
      </Paper>
    );
  }
  const m = message.data;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="mail-detail-subject" aria-busy={message.isFetching}>
      {!m ? (
        <Text id="mail-detail-subject" c="dimmed">
          {message.isError ? 'The message could not be loaded.' : 'Loading the message…'}
        </Text>
      ) : (
        <Stack gap="sm">
          <Title order={2} size="h3" id="mail-detail-subject">
            {m.subject || '(no subject)'}
          </Title>
          <Table variant="vertical" withTableBorder layout="fixed">
            <Table.Tbody>
              <Table.Tr>
                <Table.Th w={110}>To</Table.Th>
                <Table.Td>{m.to}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Status</Table.Th>
                <Table.Td>
                  <MailStatusBadge status={m.status} />
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Template</Table.Th>
                <Table.Td>
                  <Code>{m.template}</Code>
                </Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Created</Table.Th>
                <Table.Td>{formatDateTime(m.created_at, { seconds: true })}</Table.Td>
              </Table.Tr>
              <Table.Tr>
                <Table.Th>Sent</Table.Th>
                <Table.Td>{formatDateTime(m.sent_at, { seconds: true })}</Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
          {m.error && (
            <Alert color="red" title="Sending failed">
              {m.error}
            </Alert>
          )}
          <Title order={3} size="h5" id="mail-detail-links">
            Links
          </Title>
          {m.links.length === 0 ? (
            <Text c="dimmed">This message has no links.</Text>
          ) : (
            <List aria-labelledby="mail-detail-links" spacing={4}>
              {m.links.map((link) => (
                <List.Item key={link} style={{ overflowWrap: 'anywhere' }}>
                  {isWebUrl(link) ? (
                    <Anchor href={link} target="_blank" rel="noopener noreferrer">
                      {link}
                    </Anchor>
                  ) : (
                    <Text span>{link}</Text>
                  )}
                </List.Item>
              ))}
            </List>
          )}
          {m.html !== null ? (
            <iframe
              title="Message body"
              sandbox=""
              srcDoc={m.html}
              referrerPolicy="no-referrer"
              style={{
                width: '100%',
                minHeight: 420,
                border: '1px solid var(--mantine-color-default-border)',
                borderRadius: 4,
                background: '#fff',
              }}
            />
          ) : (
            <Paper
              withBorder
              p="sm"
              component="pre"
              aria-label="Message text"
              style={{ whiteSpace: 'pre-wrap', margin: 0 }}
            >
              {m.text ?? ''}
            </Paper>
          )}
        </Stack>
      )}
    </Paper>
  );
}
