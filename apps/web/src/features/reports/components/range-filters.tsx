import { Group, TextInput } from '@mantine/core';
import type { ReactNode } from 'react';
import type { RangeParams } from '../api/reports';
import { PlaceSelects } from './report-parts';

/** From / to (empty: the last 12 months) and the country / currency selects. */
export function RangeFilters(props: {
  value: RangeParams;
  onChange: (next: RangeParams) => void;
  children?: ReactNode;
}) {
  const { value, onChange } = props;
  const backwards = value.from !== '' && value.to !== '' && value.from > value.to;
  return (
    <Group align="flex-end" wrap="wrap">
      <TextInput
        type="date"
        label="From"
        value={value.from}
        onChange={(e) => onChange({ ...value, from: e.currentTarget.value })}
      />
      <TextInput
        type="date"
        label="To"
        value={value.to}
        error={backwards ? 'The last day is before the first.' : undefined}
        onChange={(e) => onChange({ ...value, to: e.currentTarget.value })}
      />
      <PlaceSelects value={value} onChange={(next) => onChange({ ...value, ...next })} />
      {props.children}
    </Group>
  );
}

/** A range the server would refuse is not asked for. */
export function rangeIsValid(r: RangeParams): boolean {
  return !(r.from !== '' && r.to !== '' && r.from > r.to);
}
