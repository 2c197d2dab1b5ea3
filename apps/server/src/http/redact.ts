/**
 * Tokens travel in paths (spec §7), so every path is redacted before it reaches a log line.
 * Two layers: the route's own parameters that carry secrets, and any path segment or query value that looks
 * like a token (for unknown routes and anything the first layer misses).
 */
export const SECRET_ROUTE_PARAMS = ['token', 'tok', 'x', 'linkToken', 'key'] as const;
const SECRET_QUERY_KEYS = /^(token|tok|idtoken|key|code|password|secret)$/i;
export const REDACTED = '[redacted]';

/**
 * A segment that looks like a random token: 16+ URL-safe characters with both letters and digits, or 32+ hex; and
 * any segment of 64+ characters, whatever it holds (nothing that long is worth echoing).
 */
function looksLikeToken(segment: string): boolean {
  if (segment.length < 16) return false;
  if (segment.length >= 64) return true;
  if (!/^[A-Za-z0-9_\-.~%]+$/.test(segment)) return false;
  return /[A-Za-z]/.test(segment) && /[0-9]/.test(segment);
}

export function redactUrl(url: string, routePattern?: string): string {
  const qIndex = url.indexOf('?');
  const pathPart = qIndex === -1 ? url : url.slice(0, qIndex);
  const queryPart = qIndex === -1 ? '' : url.slice(qIndex + 1);

  const segments = pathPart.split('/');
  const patternSegments = routePattern?.split('/');
  const redacted = segments.map((segment, i) => {
    const pattern = patternSegments?.length === segments.length ? patternSegments[i] : undefined;
    if (pattern?.startsWith(':') && (SECRET_ROUTE_PARAMS as readonly string[]).includes(pattern.slice(1))) {
      return REDACTED;
    }
    return looksLikeToken(segment) ? REDACTED : segment;
  });

  let query = '';
  if (queryPart) {
    query =
      '?' +
      queryPart
        .split('&')
        .map((pair) => {
          const eq = pair.indexOf('=');
          const key = eq === -1 ? pair : pair.slice(0, eq);
          const value = eq === -1 ? '' : pair.slice(eq + 1);
          if (SECRET_QUERY_KEYS.test(key) || looksLikeToken(value)) return `${key}=${REDACTED}`;
          return pair;
        })
        .join('&');
  }
  return redacted.join('/') + query;
}
