import { Input, Pill } from '@mantine/core';
import { MULTI_SELECT_DEFAULTS } from '@pos/domain';
import { useEffect, useId, useMemo, useRef, useState, type KeyboardEvent } from 'react';
import classes from './multi-select-dropdown.module.css';

export interface MultiSelectOption {
  readonly value: string;
  readonly label: string;
}

export interface MultiSelectDropdownProps {
  readonly label: string;
  readonly options: readonly MultiSelectOption[];
  readonly value: readonly string[];
  readonly onChange: (value: string[]) => void;
  readonly description?: string;
  readonly error?: string;
  readonly placeholder?: string;
  readonly disabled?: boolean;
  /** Height of the option list in px (spec §2 default 197). */
  readonly maxHeight?: number;
  /** Offer 'Select all' (default true; hidden while a selection limit applies). */
  readonly enableSelectAll?: boolean;
  /** At most this many selected; null (the default) means no limit. */
  readonly limitSelection?: number | null;
  /** Shown when the search matches nothing (default 'No results found'). */
  readonly noResultsText?: string;
}

const SELECT_ALL = '__select_all__';

/** Case-insensitive "contains" on the option label. */
export function filterOptions(options: readonly MultiSelectOption[], search: string): MultiSelectOption[] {
  const needle = search.trim().toLowerCase();
  return needle ? options.filter((o) => o.label.toLowerCase().includes(needle)) : [...options];
}

/**
 * The searchable multi-select dropdown of spec §2 (defaults from the domain's MULTI_SELECT_DEFAULTS: list
 * height 197, select-all, no selection limit, 'No results found').
 * Keys in the search box: ArrowDown / ArrowUp open the list and move through it; Enter opens it or
 * toggles the highlighted entry; Escape closes it; Delete, with an empty search, removes the last choice.
 * 'Select all' applies to the entries the search shows.
 */
export function MultiSelectDropdown({
  label,
  options,
  value,
  onChange,
  description,
  error,
  placeholder = 'Search',
  disabled,
  maxHeight = MULTI_SELECT_DEFAULTS.maxHeight,
  enableSelectAll = MULTI_SELECT_DEFAULTS.enableSelectAll,
  limitSelection = MULTI_SELECT_DEFAULTS.limitSelection,
  noResultsText = MULTI_SELECT_DEFAULTS.noResultsText,
}: MultiSelectDropdownProps) {
  const id = useId();
  const listId = `${id}-list`;
  const rootRef = useRef<HTMLDivElement>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  const [open, setOpen] = useState(false);
  const [search, setSearch] = useState('');
  const [active, setActive] = useState(0);

  const selected = useMemo(() => new Set(value), [value]);
  const filtered = useMemo(() => filterOptions(options, search), [options, search]);
  const limited = limitSelection !== null && limitSelection !== undefined;
  const atLimit = limited && value.length >= limitSelection;
  const showSelectAll = enableSelectAll && !limited && filtered.length > 0;
  const allFilteredSelected = filtered.length > 0 && filtered.every((o) => selected.has(o.value));
  const rows = useMemo(
    () => [...(showSelectAll ? [SELECT_ALL] : []), ...filtered.map((o) => o.value)],
    [showSelectAll, filtered],
  );
  const activeIndex = Math.min(active, Math.max(rows.length - 1, 0));
  const optionId = (index: number) => `${id}-option-${index}`;
  const labelOf = (v: string) => options.find((o) => o.value === v)?.label ?? v;

  // Close when focus or a click goes elsewhere.
  useEffect(() => {
    if (!open) return undefined;
    const onPointer = (event: MouseEvent) => {
      if (!rootRef.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('mousedown', onPointer);
    return () => document.removeEventListener('mousedown', onPointer);
  }, [open]);

  useEffect(() => {
    if (open) document.getElementById(optionId(activeIndex))?.scrollIntoView?.({ block: 'nearest' });
    // optionId depends on id only
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [open, activeIndex]);

  const toggle = (v: string) => {
    if (selected.has(v)) onChange(value.filter((x) => x !== v));
    else if (!atLimit) onChange([...value, v]);
  };

  const toggleAll = () => {
    const shown = new Set(filtered.map((o) => o.value));
    if (allFilteredSelected) onChange(value.filter((v) => !shown.has(v)));
    else onChange([...value, ...filtered.map((o) => o.value).filter((v) => !selected.has(v))]);
  };

  const pick = (row: string | undefined) => {
    if (row === undefined) return;
    if (row === SELECT_ALL) toggleAll();
    else toggle(row);
  };

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    switch (event.key) {
      case 'ArrowDown':
        event.preventDefault();
        if (!open) setOpen(true);
        else setActive(Math.min(activeIndex + 1, rows.length - 1));
        break;
      case 'ArrowUp':
        event.preventDefault();
        if (!open) setOpen(true);
        else setActive(Math.max(activeIndex - 1, 0));
        break;
      case 'Enter':
        event.preventDefault();
        if (!open) setOpen(true);
        else pick(rows[activeIndex]);
        break;
      case 'Escape':
        if (open) {
          event.preventDefault();
          setOpen(false);
        }
        break;
      case 'Delete':
        if (search === '' && value.length > 0) {
          event.preventDefault();
          onChange(value.slice(0, -1));
        }
        break;
      default:
        break;
    }
  };

  return (
    <Input.Wrapper
      id={id}
      label={label}
      description={description}
      error={error}
      descriptionProps={{ id: `${id}-description` }}
      errorProps={{ id: `${id}-error` }}
    >
      <div ref={rootRef} className={classes.root}>
        <div
          className={classes.control}
          data-invalid={error ? true : undefined}
          onClick={() => inputRef.current?.focus()}
        >
          {value.length > 0 && (
            <Pill.Group>
              {value.map((v) => (
                <Pill
                  key={v}
                  withRemoveButton={!disabled}
                  onRemove={() => onChange(value.filter((x) => x !== v))}
                  removeButtonProps={{ 'aria-label': `Remove ${labelOf(v)}`, 'aria-hidden': false, tabIndex: 0 }}
                >
                  {labelOf(v)}
                </Pill>
              ))}
            </Pill.Group>
          )}
          <input
            ref={inputRef}
            id={id}
            className={classes.search}
            type="text"
            role="combobox"
            autoComplete="off"
            placeholder={placeholder}
            disabled={disabled}
            aria-expanded={open}
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={open && rows.length > 0 ? optionId(activeIndex) : undefined}
            aria-invalid={Boolean(error)}
            aria-describedby={
              [description ? `${id}-description` : null, error ? `${id}-error` : null].filter(Boolean).join(' ') ||
              undefined
            }
            value={search}
            onChange={(e) => {
              setSearch(e.currentTarget.value);
              setActive(0);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onKeyDown={onKeyDown}
          />
        </div>
        {open && !disabled && (
          <div className={classes.dropdown}>
            {rows.length === 0 ? (
              <div className={classes.empty} role="status">
                {noResultsText}
              </div>
            ) : null}
            <ul
              id={listId}
              role="listbox"
              aria-label={label}
              aria-multiselectable="true"
              className={classes.list}
              style={{ maxHeight }}
              hidden={rows.length === 0}
            >
              {rows.map((row, index) => {
                const isAll = row === SELECT_ALL;
                const isSelected = isAll ? allFilteredSelected : selected.has(row);
                const isDisabled = !isAll && !isSelected && atLimit;
                return (
                  <li
                    key={row}
                    id={optionId(index)}
                    role="option"
                    aria-selected={isSelected}
                    aria-disabled={isDisabled || undefined}
                    data-active={index === activeIndex ? true : undefined}
                    className={isAll ? `${classes.option} ${classes.selectAll}` : classes.option}
                    onMouseDown={(e) => e.preventDefault()}
                    onMouseEnter={() => setActive(index)}
                    onClick={() => pick(row)}
                  >
                    <span className={classes.check} aria-hidden="true">
                      {isSelected ? '✓' : ''}
                    </span>
                    {isAll ? 'Select all' : labelOf(row)}
                  </li>
                );
              })}
            </ul>
          </div>
        )}
      </div>
    </Input.Wrapper>
  );
}
