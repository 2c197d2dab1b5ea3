import { PERCENT_MAX, PERCENT_MIN } from '../limits';

/** Percent inputs (spec §5): a finite number from 0 to 100 inclusive; fractions allowed (12.5). */
export function isValidPercent(value: number): boolean {
  return typeof value === 'number' && Number.isFinite(value) && value >= PERCENT_MIN && value <= PERCENT_MAX;
}
