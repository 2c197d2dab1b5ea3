/** A text for a LIKE / ILIKE pattern, matched literally: `\`, `%` and `_` escaped (PostgreSQL's default escape `\`). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');

/**
 * The pattern a text is found with in a generated, lower-cased `search_text` column (customers, stores;
 * decision 111): `%text%`, lower-cased and escaped, for a plain `like`.
 */
export const searchTextPattern = (text: string): string => `%${escapeLike(text.toLowerCase())}%`;
