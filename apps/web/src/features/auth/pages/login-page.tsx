import { Button, Center, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';

/**
 * /login — staff sign-in (spec §2, §4). The identity-provider button flow is wired by the auth work:
 * it calls the provider, creates the session and sets `error` to 'Authentication failed.' on failure (§8).
 */
export default function LoginPage() {
  const [error] = useState<string | null>(null);

  return (
    <Center mih="60vh">
      <Paper component="section" withBorder shadow="sm" p="xl" radius="md" w="100%" maw={400} aria-labelledby="sign-in-title">
        <Stack gap="md">
          <Title order={1} size="h2" id="sign-in-title">
            Sign in
          </Title>
          <Text c="gray.7" size="sm">
            Staff sign in with their company account.
          </Text>
          <Button type="button" size="md" fullWidth>
            Sign in
          </Button>
          <div aria-live="assertive">
            {error && (
              <Text c="red" fw={500} role="alert">
                {error}
              </Text>
            )}
          </div>
        </Stack>
      </Paper>
    </Center>
  );
}
