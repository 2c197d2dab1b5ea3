import { FilterDate } from '../../../components/list';
import type { RangeParams } from '../api/reports';
import { PlaceSelects } from './report-parts';

/** From / to (empty: the last 12 months) and the country / currency selects: fields of a report's filter bar. */
export function RangeFilters<R extends RangeParams>(props: { value: R; onChange: (next: R) => void }) {
  const { value, onChange } = props;
  return (
    <>
      <FilterDate label="From" value={value.from} onChange={(from) => onChange({ ...value, from })} />
      <FilterDate
        label="To"
        value={value.to}
        error={rangeIsValid(value) ? undefined : 'The last day is before the first.'}
        onChange={(to) => onChange({ ...value, to })}
      />
      <PlaceSelects value={value} onChange={(next) => onChange({ ...value, ...next })} />
    </>
  );
}

/** A range the server would refuse is not asked for. */
export function rangeIsValid(r: RangeParams): boolean {
  return !(r.from !== '' && r.to !== '' && r.from > r.to);
}
