import { Button, Group, TextInput } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { planSearch } from '../lib/search-kind';

export interface CustomerSearchFormProps {
  /** The text last searched (from the address); the box starts with it and follows it on back/forward. */
  readonly initial: string;
  readonly onSearch: (text: string) => void;
}

const GENERAL_HINT =
  'A customer id (100001), a store id (S500002), a federal tax id (12-3456789) or part of a name, DBA, bracct or sales rep.';

/**
 * The one search box: a customer id, a store id (S500002), a federal tax id or free text. While typing it
 * says which kind it will search; Search (or Enter) runs it. Too little text says why instead.
 */
export function CustomerSearchForm({ initial, onSearch }: CustomerSearchFormProps) {
  const [text, setText] = useState(initial);
  const [shown, setShown] = useState(initial);
  const [error, setError] = useState<string | null>(null);
  // Back/forward changes the searched text: the box follows (a render-time reset, no effect needed).
  if (shown !== initial) {
    setShown(initial);
    setText(initial);
    setError(null);
  }
  const plan = planSearch(text);
  const hint = plan.state === 'ready' ? plan.description.replace(/^Searching/, 'Will search') : GENERAL_HINT;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (plan.state === 'ready') {
      setError(null);
      onSearch(text.trim());
    } else {
      setError(plan.state === 'too_short' ? plan.message : 'Type what to search for.');
    }
  }

  return (
    <form role="search" aria-label="Customers" onSubmit={submit} noValidate>
      <Group align="flex-start" gap="sm" wrap="nowrap">
        <TextInput
          label="Search customers"
          type="search"
          description={hint}
          value={text}
          onChange={(e) => {
            setText(e.currentTarget.value);
            setError(null);
          }}
          error={error}
          autoComplete="off"
          inputWrapperOrder={['label', 'input', 'description', 'error']}
          style={{ flex: 1, maxWidth: 560 }}
        />
        <Button type="submit" mt={24}>
          Search
        </Button>
      </Group>
    </form>
  );
}
