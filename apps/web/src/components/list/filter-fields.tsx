import { Box, Checkbox, NativeSelect, TextInput } from '@mantine/core';
import { CURRENCY_CODES } from '@pos/domain';
import type { ReactNode } from 'react';
import { currencyLabel } from '../../lib/format';
import { MultiSelectDropdown } from '../multi-select-dropdown';

/*
 * The fields of a filter bar (issue 30's list kit): one component per kind of filter, bound to the list's draft
 * with `bindFilter(list, errors)`, so a page says which filters it has and nothing about wiring them:
 *
 *   const field = bindFilter(list, errors);
 *   <FilterSelect label="Status" data={STATUS_OPTIONS} {...field('status')} />
 *   <FilterId label="Customer id" {...field('customerId')} />
 *   <FilterDateRange label="Issued" from={field('issuedFrom')} to={field('issuedTo')} />
 */

/** A filter's value, how it changes, and what is wrong with it. */
export interface FilterBinding<T> {
  readonly value: T;
  readonly onChange: (value: T) => void;
  readonly error?: ReactNode;
}

interface DraftOwner<F> {
  readonly draft: F;
  readonly set: <K extends keyof F>(key: K) => (value: F[K]) => void;
}

/** `field('status')` → the value, onChange and error of that filter of the list's draft. */
export function bindFilter<F>(list: DraftOwner<F>, errors: Partial<Record<keyof F, ReactNode>> = {}) {
  return <K extends keyof F>(key: K): FilterBinding<F[K]> => ({
    value: list.draft[key],
    onChange: list.set(key),
    error: errors[key],
  });
}

export interface FilterSelectProps extends FilterBinding<string> {
  readonly label: string;
  /** The choices; the first is usually "Any …" with the value ''. */
  readonly data: readonly { value: string; label: string }[];
  readonly w?: number;
  readonly description?: ReactNode;
}

/** One value of a fixed set (a status, a type, a method). */
export function FilterSelect({ label, data, value, onChange, error, w = 200, description }: FilterSelectProps) {
  return (
    <NativeSelect
      label={label}
      description={description}
      data={data as { value: string; label: string }[]}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      w={w}
    />
  );
}

/** The choices of a select filter: "Any …" (the value ''), then each value by its label. */
export function filterOptions<V extends string>(
  anyLabel: string,
  values: readonly V[],
  labels: Readonly<Record<V, string>>,
): { value: string; label: string }[] {
  return [{ value: '', label: anyLabel }, ...values.map((v) => ({ value: v, label: labels[v] }))];
}

/** The choices of a currency filter: any (unless `anyLabel` is null: a currency must be chosen), then each currency by its name. */
export function currencyFilterOptions(anyLabel: string | null = 'Any currency') {
  return [
    ...(anyLabel === null ? [] : [{ value: '', label: anyLabel }]),
    ...CURRENCY_CODES.map((c) => ({ value: c, label: currencyLabel(c) })),
  ];
}

/** The currency filter: any, US$ or C$ (`anyLabel={null}` where one currency is always shown). */
export function FilterCurrency(
  props: FilterBinding<string> & {
    readonly label?: string;
    readonly anyLabel?: string | null;
    readonly w?: number;
  },
) {
  const { label = 'Currency', anyLabel, w = 150, ...binding } = props;
  return <FilterSelect label={label} data={currencyFilterOptions(anyLabel)} w={w} {...binding} />;
}

export interface FilterTextProps extends FilterBinding<string> {
  readonly label: string;
  readonly description?: ReactNode;
  readonly placeholder?: string;
  readonly w?: number;
}

/** One text input of a filter bar; the kinds below say what it holds. */
function FilterInput({
  label,
  description,
  placeholder,
  value,
  onChange,
  error,
  w,
  inputMode,
  type,
}: FilterTextProps & { readonly inputMode?: 'numeric' | 'decimal'; readonly type?: 'date' | 'month' }) {
  return (
    <TextInput
      label={label}
      description={description}
      placeholder={placeholder}
      type={type}
      inputMode={inputMode}
      value={value}
      onChange={(e) => onChange(e.currentTarget.value)}
      error={error}
      w={w}
    />
  );
}

/** Free text (a name, a reference): the page says how many characters it needs in `description`. */
export function FilterText({ w = 220, ...props }: FilterTextProps) {
  return <FilterInput w={w} {...props} />;
}

/** A record's number (customer, store, order id): a numeric keyboard on phones, narrow. */
export function FilterId({ w = 120, ...props }: FilterTextProps) {
  return <FilterInput w={w} inputMode="numeric" {...props} />;
}

/** A whole number that is not an id ("Failed within (days)", "Waiting at least (days)"): a numeric keyboard. */
export function FilterNumber({ w = 160, ...props }: FilterTextProps) {
  return <FilterInput w={w} inputMode="numeric" {...props} />;
}

/** An amount of money in dollars as typed ("Amount from", "Open balance at least"): a decimal keyboard. */
export function FilterAmount({ w = 130, ...props }: FilterTextProps) {
  return <FilterInput w={w} inputMode="decimal" {...props} />;
}

/** A day (ISO in the address, the browser's date picker on screen). */
export function FilterDate(props: FilterTextProps) {
  return <FilterInput type="date" {...props} />;
}

/** A month (YYYY-MM in the address, the browser's month picker on screen). */
export function FilterMonth({ w = 180, ...props }: FilterTextProps) {
  return <FilterInput w={w} type="month" {...props} />;
}

/** Two days that bound one date of the rows: "Issued from" and "Issued to". */
export function FilterDateRange({
  label,
  from,
  to,
}: {
  /** The date they bound, capitalised: 'Issued', 'Due', 'Received'. */
  readonly label: string;
  readonly from: FilterBinding<string>;
  readonly to: FilterBinding<string>;
}) {
  return (
    <>
      <FilterDate label={`${label} from`} {...from} />
      <FilterDate label={`${label} to`} {...to} />
    </>
  );
}

/** A yes/no filter ("Overdue only"), lined up with the fields' inputs. */
export function FilterCheck({
  label,
  description,
  value,
  onChange,
}: FilterBinding<boolean> & { readonly label: string; readonly description?: ReactNode }) {
  return (
    <Checkbox
      label={label}
      description={description}
      checked={value}
      onChange={(e) => onChange(e.currentTarget.checked)}
      mt={28}
    />
  );
}

/**
 * Several values of one field (§2's searchable multi-select dropdown): the filter holds them as a comma list
 * (`status=N,P` in the address, as the server reads it); none chosen is no filter.
 */
export function FilterMultiSelect({
  label,
  options,
  value,
  onChange,
  error,
  placeholder,
  w = 240,
}: FilterBinding<string> & {
  readonly label: string;
  readonly options: readonly { value: string; label: string }[];
  readonly placeholder?: string;
  readonly w?: number;
}) {
  const chosen = value
    .split(',')
    .map((v) => v.trim())
    .filter((v) => v !== '');
  return (
    <Box w={w}>
      <MultiSelectDropdown
        label={label}
        options={options}
        value={chosen}
        onChange={(next) => onChange(next.join(','))}
        error={typeof error === 'string' ? error : undefined}
        placeholder={placeholder ?? `Any ${label.toLowerCase()}`}
      />
    </Box>
  );
}
