import { Button, CloseButton, Group, Paper, Stack, Text } from '@mantine/core';
import type { AuthConfigInfo } from '@pos/domain';

type Account = NonNullable<AuthConfigInfo['accounts']>[number];

export interface DemoAccountPromptProps {
  readonly accounts: readonly Account[];
  readonly disabled?: boolean;
  readonly onPick: (email: string) => void;
  readonly onDismiss: () => void;
}

/**
 * The one-tap prompt of the built-in (local) identity provider: one button per demo staff account. It
 * stands in for Google's one-tap prompt, which only exists with the Google provider.
 */
export function DemoAccountPrompt({ accounts, disabled, onPick, onDismiss }: DemoAccountPromptProps) {
  return (
    <Paper
      component="section"
      withBorder
      shadow="md"
      p="md"
      radius="md"
      w="100%"
      maw={400}
      aria-labelledby="one-tap-title"
    >
      <Stack gap="sm">
        <Group justify="space-between" wrap="nowrap">
          {/* Not a heading: the page has one "Sign in" heading; this card is a named region. */}
          <Text fw={700} size="lg" id="one-tap-title">
            Sign in with your demo account
          </Text>
          <CloseButton aria-label="Close the demo account prompt" onClick={onDismiss} />
        </Group>
        <Stack gap={6} component="ul" m={0} p={0} style={{ listStyle: 'none' }}>
          {accounts.map((account) => (
            <li key={account.email}>
              <Button
                variant="default"
                fullWidth
                justify="flex-start"
                h="auto"
                py={6}
                disabled={disabled}
                aria-label={`Continue as ${account.name} (${account.email})`}
                onClick={() => onPick(account.email)}
              >
                <Stack gap={0} align="flex-start">
                  <Text component="span" size="sm" fw={600}>
                    Continue as {account.name}
                  </Text>
                  <Text component="span" size="xs" c="gray.7">
                    {account.email} · {account.role}
                  </Text>
                </Stack>
              </Button>
            </li>
          ))}
        </Stack>
      </Stack>
    </Paper>
  );
}
