import { Button, Group, NativeSelect, Paper, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import {
  statesFor,
  TAX_COMPONENT_LABELS,
  TAX_COMPONENTS_BY_COUNTRY,
  type TaxComponent,
  type TaxRateVersion,
} from '@pos/domain';
import { useState, type FormEvent } from 'react';
import { DataTable } from '../../../components/list/data-table';
import { isApiError } from '../../../lib/api';
import { describeError } from '../../../lib/error-message';
import { formatDate } from '../../../lib/format';
import { useAddTaxRate, useTaxRates } from '../api/taxes';

type Country = 'US' | 'CA';

/** 625 basis points → '6.25 %'. */
export function percentOf(bp: number): string {
  return `${(bp / 100).toFixed(2)} %`;
}

/** '6.25' → 625 basis points (half a basis point rounds up: 6.875 → 688, decision 012); null when not a rate. */
export function basisPointsOf(text: string): number | null {
  const t = text.trim().replace(/\s*%$/, '');
  if (!/^\d{1,3}(\.\d{1,3})?$/.test(t)) return null;
  return Math.round(Number(t) * 100 + 1e-9);
}

function describe(v: TaxRateVersion): string {
  const parts = v.components.map((c) => `${c.component} ${percentOf(c.rate_basis_points)}`);
  const showParts = v.components.length > 1 || v.components[0]?.component !== 'STATE';
  return `${percentOf(v.rate_basis_points)}${showParts ? ` (${parts.join(' + ')})` : ''}`;
}

/**
 * #/admin/taxes (Admin; issue 17 point 5, decision 127): the sales tax of each US state and Canadian province — the
 * rate in force today and the changes scheduled — and "Schedule a rate change": GST, HST and PST separately for a
 * province, the state rate for a US state, from an effective date (today or later; the past is not edited). Orders,
 * contracts and invoices use the rate in force on their own date.
 */
export default function TaxRatesPage() {
  const rates = useTaxRates();
  const add = useAddTaxRate();
  const [filter, setFilter] = useState<'' | Country>('');
  const [country, setCountry] = useState<Country>('US');
  const [state, setState] = useState('');
  const [effectiveOn, setEffectiveOn] = useState('');
  const [values, setValues] = useState<Partial<Record<TaxComponent, string>>>({});
  const [errors, setErrors] = useState<Record<string, string>>({});
  const components = TAX_COMPONENTS_BY_COUNTRY[country];

  function submit(e: FormEvent) {
    e.preventDefault();
    const problems: Record<string, string> = {};
    if (!state) problems.state = `Choose the ${country === 'CA' ? 'province' : 'state'}.`;
    if (!effectiveOn) problems.effective_on = 'Enter the date the rate takes effect.';
    const list: { component: TaxComponent; rate_basis_points: number }[] = [];
    for (const c of components) {
      const text = values[c]?.trim() ?? '';
      if (text === '') continue;
      const bp = basisPointsOf(text);
      if (bp === null || bp > 10_000) problems[c] = 'Enter a percentage, e.g. 6.25.';
      else list.push({ component: c, rate_basis_points: bp });
    }
    if (list.length === 0 && Object.keys(problems).every((k) => !components.includes(k as TaxComponent)))
      problems[components[0]!] = 'Enter the rate (0 for no tax).';
    setErrors(problems);
    if (Object.keys(problems).length > 0) return;
    add.mutate(
      { country, state, effective_on: effectiveOn, components: list },
      {
        onSuccess: (s) => {
          notifications.show({
            color: 'green',
            title: 'Tax rate scheduled',
            message: `${s.state_name}: ${percentOf(list.reduce((n, c) => n + c.rate_basis_points, 0))} from ${formatDate(effectiveOn)}.`,
          });
          setValues({});
        },
        onError: (error) => {
          if (isApiError(error)) {
            const fields: Record<string, string> = {};
            for (const [k, v] of Object.entries(error.fields)) {
              const m = /^components\.(\d+)/.exec(k);
              fields[m ? list[Number(m[1])]!.component : k === 'components' ? components[0]! : k] = v;
            }
            setErrors(fields);
          }
          const { title, message } = describeError(error);
          notifications.show({ color: 'red', title, message: `${message} Correct the form and schedule again.` });
        },
      },
    );
  }

  const shown = (rates.data?.states ?? []).filter((s) => filter === '' || s.country === filter);
  return (
    <Stack gap="md">
      <div>
        <Title order={1} size="h2">
          Tax rates
        </Title>
        <Text c="dimmed" size="sm">
          Sales tax per US state and Canadian province. An order, a contract or an invoice uses the rate in force on its
          own date; a change applies from its effective date only.
        </Text>
      </div>

      <Paper withBorder p="md" component="section" aria-labelledby="schedule-title">
        <Title order={2} size="h4" id="schedule-title" mb="sm">
          Schedule a rate change
        </Title>
        <form onSubmit={submit} aria-label="Schedule a rate change" noValidate>
          <Stack gap="sm">
            <Group grow align="flex-start">
              <NativeSelect
                label="Country"
                data={[
                  { value: 'US', label: 'United States' },
                  { value: 'CA', label: 'Canada' },
                ]}
                value={country}
                onChange={(e) => {
                  setCountry(e.currentTarget.value as Country);
                  setState('');
                  setValues({});
                  setErrors({});
                }}
              />
              <NativeSelect
                label={country === 'CA' ? 'Province' : 'State'}
                data={[
                  { value: '', label: 'Choose…' },
                  ...statesFor(country).map((s) => ({ value: s.code, label: `${s.name} (${s.code})` })),
                ]}
                value={state}
                onChange={(e) => setState(e.currentTarget.value)}
                error={errors.state}
                required
              />
              <TextInput
                label="Effective from"
                type="date"
                min={rates.data?.today}
                value={effectiveOn}
                onChange={(e) => setEffectiveOn(e.currentTarget.value)}
                error={errors.effective_on}
                required
              />
            </Group>
            <Group grow align="flex-start">
              {components.map((c) => (
                <TextInput
                  key={c}
                  label={`${TAX_COMPONENT_LABELS[c]} (%)`}
                  description={
                    c === 'HST' ? 'Instead of GST and PST' : c === 'PST' ? 'PST, QST or RST; empty if none' : undefined
                  }
                  inputMode="decimal"
                  placeholder={c === 'STATE' ? '6.25' : ''}
                  value={values[c] ?? ''}
                  onChange={(e) => {
                    const v = e.currentTarget.value;
                    setValues((x) => ({ ...x, [c]: v }));
                  }}
                  error={errors[c]}
                />
              ))}
            </Group>
            <Button type="submit" loading={add.isPending} w="fit-content">
              Schedule rate
            </Button>
          </Stack>
        </form>
      </Paper>

      <section aria-label="Rates">
        <NativeSelect
          label="Show"
          w={220}
          mb="xs"
          data={[
            { value: '', label: 'All states and provinces' },
            { value: 'US', label: 'US states' },
            { value: 'CA', label: 'Canadian provinces' },
          ]}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value as '' | Country)}
        />
        <DataTable
          caption={rates.data ? `Rates on ${formatDate(rates.data.today)}` : 'Rates'}
          columns={['State / province', 'Country', 'Rate in force', 'Since', 'Scheduled']}
          minWidth={800}
          rowCount={shown.length}
          emptyText={rates.isError ? describeError(rates.error).message : 'Loading rates…'}
        >
          {shown.map((s) => (
            <Table.Tr key={`${s.country}-${s.state}`}>
              <Table.Th scope="row">
                {s.state_name} ({s.state})
              </Table.Th>
              <Table.Td>{s.country}</Table.Td>
              <Table.Td>{s.current ? describe(s.current) : 'No rate'}</Table.Td>
              <Table.Td>{s.current ? formatDate(s.current.effective_on) : '—'}</Table.Td>
              <Table.Td>
                {s.scheduled.length === 0
                  ? '—'
                  : s.scheduled.map((v) => `${describe(v)} from ${formatDate(v.effective_on)}`).join('; ')}
              </Table.Td>
            </Table.Tr>
          ))}
        </DataTable>
      </section>
    </Stack>
  );
}
