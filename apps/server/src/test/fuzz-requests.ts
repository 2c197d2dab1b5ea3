import fc from 'fast-check';
import { z } from 'zod';

/*
 * Malformed requests generated from a route's zod contracts (decision 133). A route's `schema` (params, querystring,
 * headers, body) is turned into JSON Schema with zod's own converter (as the OpenAPI document is), a valid-ish value is
 * drawn from it, and then one thing is broken: one field gets a hostile value, a required field goes, an extra or a
 * prototype key comes, the whole body is of another type or not JSON at all, a path parameter or a query value is
 * garbage, or the Idempotency-Key is. A near-valid request with one broken field is what reaches the deepest code.
 */

type Json = null | boolean | number | string | Json[] | { [k: string]: Json };

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema | JsonSchema[];
  prefixItems?: JsonSchema[];
  additionalProperties?: boolean | JsonSchema;
  enum?: Json[];
  const?: Json;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  pattern?: string;
  format?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  minItems?: number;
  maxItems?: number;
  default?: Json;
}

/** The JSON Schema of a zod schema as a client sends it (input side), or undefined when it is not a zod schema. */
export function toJsonSchema(schema: unknown): JsonSchema | undefined {
  if (!(schema instanceof z.ZodType)) return undefined;
  try {
    return z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  } catch {
    return {};
  }
}

/** Ids worth sending where an id is asked for: a few real ones (so a request gets past "not found") and edge ones. */
export interface FuzzIds {
  real: number[];
}

const isIdName = (name: string) => /(^id$|Id$|_id$|^id_|Ids$|_ids$)/.test(name);

/** The hostile strings: huge, unicode of every kind, NUL, lone surrogates, SQL, HTML, paths, format strings. */
export const hostileString: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\u0000b',
    '\uD800',
    'x\uDFFFy',
    '😀🏳️‍🌈👩‍👩‍👧‍👦',
    '\u202Eevil\u202C',
    'مرحبا بالعالم',
    'שלום',
    '\u200B\u200D\uFEFF',
    "' OR '1'='1' --",
    "'; drop table invoices; --",
    '"; select pg_sleep(1); --',
    '%_\\%',
    '<script>alert(1)</script>',
    '<img src=x onerror=alert(1)>',
    '{{7*7}}${7*7}',
    '../../../etc/passwd',
    '%00',
    '%2e%2e%2f',
    '\r\nSet-Cookie: x=1',
    'NaN',
    'Infinity',
    '-1',
    '1e400',
    '0x1F',
    '99999999999999999999999',
    'null',
    'true',
    '[]',
    '{}',
    '__proto__',
    'constructor',
    'prototype',
    '2026-02-30',
    '9999-12-31T23:59:59Z',
    '0000-00-00',
    'USD\u0000',
    'é'.normalize('NFD'),
  ),
  fc.constantFrom(100_001, 250_000).map((n) => 'A'.repeat(n)),
  fc.constantFrom(30_000).map((n) => '😀'.repeat(n)),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 20 }),
);

const hostileNumber: fc.Arbitrary<number> = fc.oneof(
  fc.constantFrom(
    -1,
    0,
    -0,
    0.5,
    1.5,
    -2_147_483_649,
    2_147_483_648,
    2 ** 53,
    2 ** 53 + 2,
    Number.MAX_SAFE_INTEGER,
    -Number.MAX_SAFE_INTEGER,
    1e21,
    1e308,
    -1e308,
    Number.MIN_VALUE,
    2 ** 63,
  ),
  fc.double({ noNaN: true, noDefaultInfinity: true }),
  fc.integer(),
);

/** Any hostile JSON value: the strings and numbers above, the wrong types, deep and prototype-keyed objects. */
export const hostileValue: fc.Arbitrary<Json> = fc.oneof(
  { weight: 4, arbitrary: hostileString },
  { weight: 3, arbitrary: hostileNumber },
  {
    weight: 2,
    arbitrary: fc.constantFrom<Json>(
      null,
      true,
      false,
      [],
      {},
      [1, 2, 3],
      [null],
      ['a', { b: 1 }],
      { a: 1 },
      { toString: 'x', valueOf: 1, hasOwnProperty: null },
    ),
  },
  { weight: 1, arbitrary: fc.constantFrom(200, 1000).map((d) => deepNest(d)) },
  { weight: 1, arbitrary: fc.constantFrom(20_000).map((n) => Array.from({ length: n }, (_, i) => i)) },
  { weight: 1, arbitrary: fc.jsonValue({ maxDepth: 3 }) as fc.Arbitrary<Json> },
);

function deepNest(depth: number): Json {
  let v: Json = 1;
  for (let i = 0; i < depth; i++) v = { a: v };
  return v;
}

const PROTO_KEYS = ['__proto__', 'constructor', 'prototype'] as const;

/** A valid-ish value of a JSON Schema (bounded: short strings, short arrays, ids from the pool). */
export function validish(schema: JsonSchema | undefined, ids: FuzzIds, name = '', depth = 0): fc.Arbitrary<Json> {
  if (!schema || depth > 6) return fc.constant(null);
  if (schema.const !== undefined) return fc.constant(schema.const);
  if (schema.enum) return fc.constantFrom(...schema.enum);
  const alternatives = schema.anyOf ?? schema.oneOf;
  if (alternatives?.length) return fc.oneof(...alternatives.map((s) => validish(s, ids, name, depth + 1)));
  if (schema.allOf?.length) return validish(Object.assign({}, ...schema.allOf) as JsonSchema, ids, name, depth + 1);
  const types = schema.type === undefined ? undefined : ([] as string[]).concat(schema.type);
  if (types && types.length > 1)
    return fc.oneof(...types.map((type) => validish({ ...schema, type }, ids, name, depth + 1)));
  switch (types?.[0]) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number':
      return numberOf(schema, ids, name);
    case 'string':
      return stringOf(schema, ids, name);
    case 'array': {
      const items = Array.isArray(schema.items) ? schema.items[0] : (schema.items ?? schema.prefixItems?.[0]);
      const min = schema.minItems ?? 0;
      return fc.array(validish(items, ids, name, depth + 1), {
        minLength: min,
        maxLength: Math.max(min, Math.min(schema.maxItems ?? 3, 3)),
      });
    }
    case 'object':
      return objectOf(schema, ids, depth);
    default:
      if (schema.properties) return objectOf(schema, ids, depth);
      return fc.oneof(fc.string({ maxLength: 8 }), fc.integer({ min: 0, max: 100 }), fc.constant(null));
  }
}

function objectOf(schema: JsonSchema, ids: FuzzIds, depth: number): fc.Arbitrary<Json> {
  const props = schema.properties ?? {};
  const required = new Set(schema.required ?? []);
  const model: Record<string, fc.Arbitrary<Json>> = {};
  for (const [key, s] of Object.entries(props)) model[key] = validish(s, ids, key, depth + 1);
  const requiredKeys = Object.keys(props).filter((k) => required.has(k));
  return fc.record(model, { requiredKeys }) as fc.Arbitrary<Json>;
}

function numberOf(schema: JsonSchema, ids: FuzzIds, name: string): fc.Arbitrary<number> {
  const int = ([] as string[]).concat(schema.type ?? []).includes('integer');
  const lo = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 0);
  const hi = schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : lo + 100_000);
  const min = Math.max(lo, -1_000_000_000);
  const max = Math.min(Math.max(hi, min), 1_000_000_000);
  const inRange = int
    ? fc.integer({ min: Math.ceil(min), max: Math.floor(max) })
    : fc.double({ min, max, noNaN: true, noDefaultInfinity: true });
  const real = ids.real.filter((n) => n >= min && n <= max);
  if (isIdName(name) && real.length) return fc.oneof({ weight: 3, arbitrary: fc.constantFrom(...real) }, inRange);
  return inRange;
}

function stringOf(schema: JsonSchema, ids: FuzzIds, name: string): fc.Arbitrary<string> {
  const min = schema.minLength ?? 0;
  const max = Math.max(min, Math.min(schema.maxLength ?? 12, 24));
  if (isIdName(name) && ids.real.length) return fc.constantFrom(...ids.real.map(String));
  switch (schema.format) {
    case 'email':
      return fc.emailAddress();
    case 'uuid':
      return fc.uuid();
    case 'date':
      return fc
        .date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString().slice(0, 10));
    case 'date-time':
      return fc
        .date({ min: new Date('2020-01-01'), max: new Date('2030-12-31'), noInvalidDate: true })
        .map((d) => d.toISOString());
    default:
  }
  if (schema.pattern) {
    try {
      const re = new RegExp(schema.pattern);
      return fc.stringMatching(re).filter((s) => s.length >= min && s.length <= Math.max(max, 200) && re.test(s));
    } catch {
      // A pattern fast-check cannot draw from: any short string (still a valid request shape otherwise).
    }
  }
  return fc.string({ minLength: min, maxLength: max });
}

/** A request as the fuzz sends it. */
export interface FuzzRequest {
  method: string;
  /** Path with its parameters filled (encoded). */
  url: string;
  /** What was broken, for the failure message. */
  mutation: string;
  headers: Record<string, string>;
  /** The raw body (already serialized) and its content type. */
  payload?: string;
  contentType?: string;
}

export interface RouteContract {
  method: string;
  url: string;
  params?: JsonSchema;
  querystring?: JsonSchema;
  headers?: JsonSchema;
  body?: JsonSchema;
}

type Mutation =
  | { kind: 'body-field'; path: number; value: Json }
  | { kind: 'body-typed'; path: number; text: string; number: number; pick: number }
  | { kind: 'body-drop'; path: number }
  | { kind: 'body-extra'; key: string; value: Json }
  | { kind: 'body-proto'; key: (typeof PROTO_KEYS)[number]; value: Json }
  | { kind: 'body-whole'; value: Json }
  | { kind: 'body-raw'; raw: string; contentType: string }
  | { kind: 'param'; index: number; value: string }
  | { kind: 'query-field'; index: number; value: string }
  | { kind: 'query-extra'; key: string; value: string }
  | { kind: 'query-raw'; raw: string }
  | { kind: 'idempotency-key'; value: string }
  | { kind: 'header'; name: string; value: string }
  | { kind: 'valid' };

const RAW_BODIES = fc.constantFrom(
  '{',
  '{"a":',
  '[',
  'null',
  '""',
  '1e400',
  '{"amount_cents": 1e400}',
  '{"a": NaN}',
  '{"__proto__": {"isAdmin": true}}',
  '{"constructor": {"prototype": {"x": 1}}}',
  '\u0000',
  '{"a":"\\u0000"}',
  '{"a":"\\ud800"}',
  'not json at all',
  '\uFEFF{}',
  '{"a":1,"a":2}',
);
const RAW_CONTENT_TYPES = fc.constantFrom(
  'application/json',
  'application/json; charset=utf-16',
  'text/plain',
  'application/x-www-form-urlencoded',
  'multipart/form-data; boundary=xyz',
  'multipart/form-data',
  'application/xml',
);
const IDEMPOTENCY_GARBAGE = fc.oneof(
  fc.constantFrom(
    '',
    ' ',
    '   x   ',
    'k'.repeat(201),
    'k'.repeat(10_000),
    "'; drop table idempotency_keys; --",
    '<script>',
    'caf\u00e9',
    '\t',
    'a b',
  ),
  fc.string({ unit: fc.constantFrom(...'abc!~ \t\u00e9\u00ff'.split('')), maxLength: 30 }),
);

/** Header values a client can send (visible ASCII and spaces; the transport refuses control characters). */
const HEADER_GARBAGE = fc.oneof(
  fc.constantFrom(
    '',
    '*/*;q=abc',
    'bytes=999999999999-',
    'bytes=-1,-2,-3',
    '__proto__=1; constructor=2; XSRF-TOKEN=',
    '999.999.999.999, ::1, x',
    'Thu, 99 Foo 99999 99:99:99 GMT',
    "' OR 1=1 --",
    'Bearer ' + 'A'.repeat(8000),
    'null',
    'javascript:alert(1)',
  ),
  fc.string({ unit: fc.constantFrom(...' !"#$%&()*+,-./0123456789:;<=>?@AZaz[\\]^_`{|}~'.split('')), maxLength: 60 }),
);

/** Query strings are text: a value of the contract written as the browser would. */
function queryText(v: Json): string[] {
  if (v === null) return [];
  if (Array.isArray(v)) return v.flatMap(queryText);
  if (typeof v === 'object') return [JSON.stringify(v)];
  return [String(v)];
}

function leafPaths(v: Json, prefix: (string | number)[] = [], out: (string | number)[][] = []): (string | number)[][] {
  if (v !== null && typeof v === 'object') {
    const entries = Array.isArray(v) ? v.map((x, i) => [i, x] as const) : Object.entries(v);
    for (const [k, x] of entries) {
      out.push([...prefix, k]);
      if (prefix.length < 4) leafPaths(x, [...prefix, k], out);
    }
  }
  return out;
}

function setAt(root: Json, path: (string | number)[], value: Json | undefined): Json {
  const copy = structuredClone(root);
  let node = copy as Record<string | number, Json>;
  for (const k of path.slice(0, -1)) node = node[k] as Record<string | number, Json>;
  const last = path[path.length - 1]!;
  if (value === undefined) {
    if (Array.isArray(node)) node.splice(Number(last), 1);
    else delete node[last];
  } else node[last] = value;
  return copy;
}

/**
 * Break one leaf of the body keeping its type — a hostile string for a string, a hostile number (negative, huge,
 * fractional, past int4) for a number — which gets past the type check to the bounds and the database.
 */
function typedBreak(
  body: Json,
  paths: (string | number)[][],
  m: { path: number; text: string; number: number; pick: number },
): Json {
  const leaves = paths.filter((p) => {
    const v = valueAt(body, p);
    return typeof v === 'string' || typeof v === 'number';
  });
  if (!leaves.length) return body;
  const path = leaves[m.path % leaves.length]!;
  const old = valueAt(body, path);
  return setAt(body, path, typeof old === 'number' ? m.number : m.text);
}

function valueAt(root: Json, path: (string | number)[]): Json | undefined {
  let node: Json | undefined = root;
  for (const k of path)
    node = node && typeof node === 'object' ? (node as Record<string | number, Json>)[k] : undefined;
  return node;
}

/** A body with a prototype key written as an own key of the JSON text (JSON.stringify of a literal cannot). */
function withRawKey(body: Json, key: string, value: Json): string {
  const base = body !== null && typeof body === 'object' && !Array.isArray(body) ? body : {};
  const rest = JSON.stringify(base);
  const member = `${JSON.stringify(key)}:${JSON.stringify(value)}`;
  return rest === '{}' ? `{${member}}` : `{${member},${rest.slice(1)}`;
}

/**
 * Percent-encode a path segment; a lone surrogate (which encodeURIComponent refuses) goes as its CESU-8 bytes — not
 * valid UTF-8, as a hostile client may send.
 */
function encodeLoose(s: string): string {
  let out = '';
  for (const ch of s) {
    const c = ch.charCodeAt(0);
    if (ch.length === 1 && c >= 0xd800 && c <= 0xdfff)
      out +=
        `%${(0xe0 | (c >> 12)).toString(16)}%${(0x80 | ((c >> 6) & 0x3f)).toString(16)}%${(0x80 | (c & 0x3f)).toString(16)}`.toUpperCase();
    else out += encodeURIComponent(ch);
  }
  return out;
}

/** The malformed requests of one route. `token` fills `:token`; other params come from the contract. */
export function malformedRequest(
  route: RouteContract,
  ids: FuzzIds,
  token: fc.Arbitrary<string>,
): fc.Arbitrary<FuzzRequest> {
  const paramNames = [...route.url.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  const hasBody = !['GET', 'HEAD', 'DELETE', 'OPTIONS'].includes(route.method) || route.body !== undefined;
  const queryNames = Object.keys(route.querystring?.properties ?? {});
  const takesKey = Boolean(route.headers?.properties?.['idempotency-key']);

  const mutations: fc.WeightedArbitrary<Mutation>[] = [
    {
      weight: 3,
      arbitrary: fc.record({
        kind: fc.constant('param' as const),
        index: fc.nat(Math.max(0, paramNames.length - 1)),
        value: hostileString.map((s) => s.slice(0, 3000)),
      }),
    },
    {
      weight: queryNames.length ? 4 : 1,
      arbitrary: fc.record({
        kind: fc.constant('query-field' as const),
        index: fc.nat(Math.max(0, queryNames.length - 1)),
        value: hostileString.map((s) => s.slice(0, 5000)),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('query-extra' as const),
        key: fc.constantFrom('__proto__', 'constructor', 'prototype', 'extra', 'limit', 'offset', 'page'),
        value: hostileString.map((s) => s.slice(0, 5000)),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('query-raw' as const),
        raw: fc.constantFrom(
          '%',
          '%zz',
          '&&&',
          '=',
          'a[b]=1&a[c]=2',
          '__proto__[x]=1',
          'constructor[prototype][x]=1',
          'page=1&page=2&page=3',
          'limit=1e400',
          'offset=99999999999999',
          'offset=2147483648',
          'page=-1&page_size=0',
          `q=${'%F0%9F%98%80'.repeat(3000)}`,
          '%00=%00',
        ),
      }),
    },
    {
      weight: 1,
      arbitrary: fc.record({
        kind: fc.constant('header' as const),
        name: fc.constantFrom(
          'accept',
          'accept-language',
          'accept-encoding',
          'cookie',
          'x-forwarded-for',
          'x-forwarded-proto',
          'if-none-match',
          'if-modified-since',
          'range',
          'authorization',
          'origin',
          'x-request-id',
        ),
        value: HEADER_GARBAGE,
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'valid' as const }) },
  ];
  if (hasBody) {
    mutations.push(
      {
        weight: 8,
        arbitrary: fc.record({ kind: fc.constant('body-field' as const), path: fc.nat(), value: hostileValue }),
      },
      {
        weight: 8,
        arbitrary: fc.record({
          kind: fc.constant('body-typed' as const),
          path: fc.nat(),
          text: hostileString,
          number: hostileNumber,
          pick: fc.nat(),
        }),
      },
      { weight: 3, arbitrary: fc.record({ kind: fc.constant('body-drop' as const), path: fc.nat() }) },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('body-extra' as const),
          key: fc.constantFrom('extra', 'id', 'version', 'role', 'is_admin', 'amount_cents', 'currency', ''),
          value: hostileValue,
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('body-proto' as const),
          key: fc.constantFrom(...PROTO_KEYS),
          value: fc.oneof(hostileValue, fc.constant<Json>({ isAdmin: true, role: 'Admin', prototype: { x: 1 } })),
        }),
      },
      { weight: 2, arbitrary: fc.record({ kind: fc.constant('body-whole' as const), value: hostileValue }) },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('body-raw' as const),
          raw: RAW_BODIES,
          contentType: RAW_CONTENT_TYPES,
        }),
      },
    );
  }
  if (takesKey)
    mutations.push({
      weight: 3,
      arbitrary: fc.record({ kind: fc.constant('idempotency-key' as const), value: IDEMPOTENCY_GARBAGE }),
    });

  const params = fc.record(
    Object.fromEntries(
      paramNames.map((n) => [
        n,
        n === 'token' ? token : validish(route.params?.properties?.[n] ?? { type: 'string' }, ids, n),
      ]),
    ),
  );
  const query = route.querystring ? validish(route.querystring, ids) : fc.constant(null);
  const body = route.body ? validish(route.body, ids) : fc.constant<Json>({});

  return fc
    .record({
      params,
      query,
      body,
      mutation: fc.oneof(...mutations),
      key: fc.uuid(),
    })
    .map(({ params: p, query: q, body: b, mutation: m, key }) => {
      const values: Record<string, string> = Object.fromEntries(
        Object.entries(p).map(([k, v]) => [k, String(queryText(v as Json)[0] ?? '')]),
      );
      if (m.kind === 'param' && paramNames.length) values[paramNames[m.index % paramNames.length]!] = m.value;
      const path = route.url.replace(/:(\w+)/g, (_, n: string) => encodeLoose(values[n] ?? '1'));

      const search = new URLSearchParams();
      if (q && typeof q === 'object' && !Array.isArray(q))
        for (const [k, v] of Object.entries(q)) for (const s of queryText(v)) search.append(k, s);
      if (m.kind === 'query-field' && queryNames.length) search.set(queryNames[m.index % queryNames.length]!, m.value);
      if (m.kind === 'query-extra') search.append(m.key, m.value);
      let qs = search.toString();
      if (m.kind === 'query-raw') qs = qs ? `${qs}&${m.raw}` : m.raw;

      const headers: Record<string, string> = {};
      if (takesKey) headers['idempotency-key'] = m.kind === 'idempotency-key' ? m.value : `fuzz-${key}`;
      if (m.kind === 'header') headers[m.name] = m.value;

      let payload: string | undefined;
      let contentType: string | undefined;
      if (hasBody) {
        contentType = 'application/json';
        const paths = leafPaths(b);
        if (m.kind === 'body-field')
          payload = JSON.stringify(paths.length ? setAt(b, paths[m.path % paths.length]!, m.value) : m.value);
        else if (m.kind === 'body-typed') payload = JSON.stringify(typedBreak(b, paths, m));
        else if (m.kind === 'body-drop')
          payload = JSON.stringify(paths.length ? setAt(b, paths[m.path % paths.length]!, undefined) : null);
        else if (m.kind === 'body-extra') payload = withRawKey(b, m.key, m.value);
        else if (m.kind === 'body-proto') payload = withRawKey(b, m.key, m.value);
        else if (m.kind === 'body-whole') payload = JSON.stringify(m.value);
        else if (m.kind === 'body-raw') {
          payload = m.raw;
          contentType = m.contentType;
        } else payload = JSON.stringify(b);
      }
      const described =
        m.kind === 'body-field' || m.kind === 'body-drop' || m.kind === 'body-typed'
          ? `${m.kind} #${m.path}`
          : m.kind === 'param' || m.kind === 'query-field'
            ? `${m.kind} #${m.index}`
            : m.kind;
      return {
        method: route.method,
        url: qs ? `${path}?${qs}` : path,
        mutation: described,
        headers,
        ...(payload !== undefined ? { payload, contentType } : {}),
      };
    });
}
