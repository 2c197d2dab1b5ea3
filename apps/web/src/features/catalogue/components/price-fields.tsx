import { Group, TextInput } from '@mantine/core';
import { CURRENCY_CODES, parseMoney, type CurrencyCode, type PriceMap } from '@pos/domain';
import { currencyLabel } from '../../../lib/format';
import { centsToInput } from '../lib/table';

export type PriceTexts = Record<CurrencyCode, string>;

export const priceTextsOf = (prices: PriceMap | null): PriceTexts => ({
  USD: centsToInput(prices?.USD),
  CAD: centsToInput(prices?.CAD),
});

/** The typed prices as cents per currency (empty = no price); the currencies whose text is not an amount. */
export function readPrices(texts: PriceTexts): { prices: PriceMap; bad: Partial<Record<CurrencyCode, string>> } {
  const prices: PriceMap = { USD: null, CAD: null };
  const bad: Partial<Record<CurrencyCode, string>> = {};
  for (const c of CURRENCY_CODES) {
    const text = texts[c].trim();
    if (text === '') continue;
    const money = parseMoney(text, c);
    if (!money || money.cents < 0) bad[c] = `Enter the ${c} price as an amount, e.g. 12.50, or leave it empty.`;
    else prices[c] = money.cents;
  }
  return { prices, bad };
}

/** One amount input per currency ('USD ($) price'), typed as money like the other money fields. */
export function PriceFields({
  value,
  onChange,
  errors,
}: {
  readonly value: PriceTexts;
  readonly onChange: (next: PriceTexts) => void;
  readonly errors: Partial<Record<string, string>>;
}) {
  return (
    <Group grow>
      {CURRENCY_CODES.map((c) => (
        <TextInput
          key={c}
          label={`${currencyLabel(c)} price`}
          description="Empty: not sold in this currency"
          inputMode="decimal"
          value={value[c]}
          onChange={(e) => onChange({ ...value, [c]: e.currentTarget.value })}
          error={errors[c] ?? errors[`prices.${c}`]}
        />
      ))}
    </Group>
  );
}
