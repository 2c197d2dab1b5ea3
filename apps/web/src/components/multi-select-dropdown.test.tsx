import { MantineProvider } from '@mantine/core';
import { MULTI_SELECT_DEFAULTS } from '@pos/domain';
import { render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import {
  filterOptions,
  MultiSelectDropdown,
  type MultiSelectDropdownProps,
  type MultiSelectOption,
} from './multi-select-dropdown';

const agentTypes: MultiSelectOption[] = [
  { value: 'Distributor', label: 'Distributor' },
  { value: 'REFP', label: 'REFP' },
  { value: 'RDC', label: 'RDC' },
];

function Harness(
  props: Partial<MultiSelectDropdownProps> & { readonly onValue?: (v: string[]) => void; readonly initial?: string[] },
) {
  const { onValue, initial = [], ...rest } = props;
  const [value, setValue] = useState<string[]>(initial);
  return (
    <MultiSelectDropdown
      label="Agent types"
      options={agentTypes}
      value={value}
      onChange={(v) => {
        setValue(v);
        onValue?.(v);
      }}
      {...rest}
    />
  );
}

function setup(props: Parameters<typeof Harness>[0] = {}) {
  const onValue = vi.fn<(v: string[]) => void>();
  render(
    <MantineProvider>
      <Harness onValue={onValue} {...props} />
    </MantineProvider>,
  );
  return { onValue, input: screen.getByRole('combobox', { name: 'Agent types' }) };
}

const last = (fn: ReturnType<typeof vi.fn>) => fn.mock.calls.at(-1)?.[0] as string[] | undefined;

describe('MultiSelectDropdown', () => {
  it('opens a labelled list 197 px high with Select all and every option', async () => {
    const { input } = setup();
    await userEvent.click(input);
    const list = screen.getByRole('listbox', { name: 'Agent types' });
    expect(list.style.maxHeight).toBe('197px');
    expect(list.getAttribute('aria-multiselectable')).toBe('true');
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['Select all', 'Distributor', 'REFP', 'RDC']);
    expect(input.getAttribute('aria-expanded')).toBe('true');
  });

  it('uses the spec defaults', () => {
    expect(MULTI_SELECT_DEFAULTS).toMatchObject({
      maxHeight: 197,
      enableSelectAll: true,
      limitSelection: null,
      noResultsText: 'No results found',
    });
  });

  it('selects by click, as many as wanted (no limit)', async () => {
    const { input, onValue } = setup();
    await userEvent.click(input);
    await userEvent.click(screen.getByRole('option', { name: 'REFP' }));
    await userEvent.click(screen.getByRole('option', { name: 'Distributor' }));
    await userEvent.click(screen.getByRole('option', { name: 'RDC' }));
    expect(last(onValue)).toEqual(['REFP', 'Distributor', 'RDC']);
    expect(screen.getByRole('option', { name: 'RDC' }).getAttribute('aria-selected')).toBe('true');
    await userEvent.click(screen.getByRole('option', { name: 'REFP' }));
    expect(last(onValue)).toEqual(['Distributor', 'RDC']);
  });

  it('Select all selects every option shown, and again clears them', async () => {
    const { input, onValue } = setup();
    await userEvent.click(input);
    await userEvent.click(screen.getByRole('option', { name: 'Select all' }));
    expect(last(onValue)).toEqual(['Distributor', 'REFP', 'RDC']);
    expect(screen.getByRole('option', { name: 'Select all' }).getAttribute('aria-selected')).toBe('true');
    await userEvent.click(screen.getByRole('option', { name: 'Select all' }));
    expect(last(onValue)).toEqual([]);
  });

  it('searches case-insensitively; Select all then applies to the matches', async () => {
    const { input, onValue } = setup();
    await userEvent.type(input, 'r');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual([
      'Select all',
      'Distributor',
      'REFP',
      'RDC',
    ]);
    await userEvent.type(input, 'd');
    expect(screen.getAllByRole('option').map((o) => o.textContent)).toEqual(['Select all', 'RDC']);
    await userEvent.click(screen.getByRole('option', { name: 'Select all' }));
    expect(last(onValue)).toEqual(['RDC']);
  });

  it("says 'No results found' when nothing matches", async () => {
    const { input } = setup();
    await userEvent.type(input, 'zzz');
    expect(screen.getByText('No results found')).toBeTruthy();
    expect(screen.queryAllByRole('option')).toHaveLength(0);
  });

  it('keys: ArrowDown opens and moves, Enter toggles, ArrowUp moves back, Escape closes', async () => {
    const { input, onValue } = setup();
    input.focus();
    await userEvent.keyboard('{Escape}');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    await userEvent.keyboard('{ArrowDown}');
    expect(input.getAttribute('aria-expanded')).toBe('true');
    const activeName = () => document.getElementById(input.getAttribute('aria-activedescendant') ?? '')?.textContent;
    expect(activeName()).toBe('Select all');
    await userEvent.keyboard('{ArrowDown}{ArrowDown}');
    expect(activeName()).toBe('REFP');
    await userEvent.keyboard('{Enter}');
    expect(last(onValue)).toEqual(['REFP']);
    await userEvent.keyboard('{ArrowUp}{Enter}');
    expect(last(onValue)).toEqual(['REFP', 'Distributor']);
    await userEvent.keyboard('{ArrowDown}{ArrowDown}{ArrowDown}{ArrowDown}');
    expect(activeName()).toBe('RDC');
    await userEvent.keyboard('{Escape}');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('Delete with an empty search removes the last choice; the chips can be removed by name', async () => {
    const { input, onValue } = setup({ initial: ['RDC', 'REFP'] });
    input.focus();
    await userEvent.keyboard('{Delete}');
    expect(last(onValue)).toEqual(['RDC']);
    await userEvent.click(screen.getByRole('button', { name: 'Remove RDC' }));
    expect(last(onValue)).toEqual([]);
  });

  it('Delete while typing edits the search instead', async () => {
    const { input, onValue } = setup({ initial: ['RDC'] });
    await userEvent.type(input, 'ab{ArrowLeft}{Delete}');
    expect((input as HTMLInputElement).value).toBe('a');
    expect(onValue).not.toHaveBeenCalled();
  });

  it('closes on a click elsewhere', async () => {
    const { input } = setup();
    await userEvent.click(input);
    expect(screen.getByRole('listbox')).toBeTruthy();
    await userEvent.click(document.body);
    expect(screen.queryByRole('listbox')).toBeNull();
  });

  it('honours a selection limit when one is given (and then offers no Select all)', async () => {
    const { input, onValue } = setup({ limitSelection: 1 });
    await userEvent.click(input);
    expect(screen.queryByRole('option', { name: 'Select all' })).toBeNull();
    await userEvent.click(screen.getByRole('option', { name: 'REFP' }));
    expect(screen.getByRole('option', { name: 'RDC' }).getAttribute('aria-disabled')).toBe('true');
    await userEvent.click(screen.getByRole('option', { name: 'RDC' }));
    expect(last(onValue)).toEqual(['REFP']);
  });

  it('filterOptions matches anywhere in the label, ignoring case', () => {
    expect(filterOptions(agentTypes, ' rE ').map((o) => o.value)).toEqual(['REFP']);
    expect(filterOptions(agentTypes, '')).toHaveLength(3);
  });
});
