/** A text for a LIKE / ILIKE pattern, matched literally: `\`, `%` and `_` escaped (PostgreSQL's default escape `\`). */
export const escapeLike = (text: string) => text.replace(/[\\%_]/g, '\\$&');
