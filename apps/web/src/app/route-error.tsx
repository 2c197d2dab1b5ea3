import { Button, Stack, Text, Title } from '@mantine/core';
import { useRouteError } from 'react-router';

/** Shown when a page fails to load or render (e.g. a new version replaced the page's files). */
export function RouteError() {
  const error = useRouteError();
  if (import.meta.env.DEV) console.error(error);
  return (
    <Stack component="section" p="xl" maw={520} aria-labelledby="route-error-title">
      <Title order={1} size="h2" id="route-error-title">
        This page could not be shown
      </Title>
      <Text>Reload the page to try again. If it keeps happening, contact support.</Text>
      <Button onClick={() => window.location.reload()} w="fit-content">
        Reload the page
      </Button>
    </Stack>
  );
}
