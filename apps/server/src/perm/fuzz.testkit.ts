/**
 * A-40 body fuzzing without a new dependency: a seeded PRNG (mulberry32, so a failure
 * reproduces from its seed), bodies drawn from a route's own JSON schema (the OpenAPI
 * document the zod schemas produce), then mutated the ways an attacker or a broken client
 * would: fields dropped, mass-assignment fields added, wrong types, extremes, junk text.
 */

export type Rng = () => number;

/** mulberry32: 32-bit state, uniform in [0, 1). */
export function seeded(seed: number): Rng {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const pick = <T>(rnd: Rng, items: readonly T[]): T => items[Math.floor(rnd() * items.length)]!;
const int = (rnd: Rng, min: number, max: number) => min + Math.floor(rnd() * (max - min + 1));

export interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  required?: string[];
  items?: JsonSchema;
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  minItems?: number;
  maxItems?: number;
  format?: string;
  pattern?: string;
  $ref?: string;
}

const ALPHABET = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-'];
const JUNK = [
  '',
  ' ',
  '\u0000',
  '<script>alert(1)</script>',
  '"><img src=x onerror=alert(1)>',
  "'; drop table accounts; --",
  '🙂'.repeat(40),
  '\u202e\u0645',
  '../../etc/passwd',
  '%00',
  '${7*7}',
  '{{7*7}}',
  'javascript:alert(1)',
];

/** Plausible values for fields by name (ids of objects that exist), used most of the time. */
export type Hints = Readonly<Record<string, () => unknown>>;

/** A value the schema probably accepts (patterns are not solved: such strings are plausible text). */
export function generate(schema: JsonSchema, rnd: Rng, resolve: (ref: string) => JsonSchema, hints: Hints = {}, depth = 0): unknown {
  if (schema.$ref) return generate(resolve(schema.$ref), rnd, resolve, hints, depth);
  if (schema.const !== undefined) return schema.const;
  if (schema.enum?.length) return pick(rnd, schema.enum);
  const branches = schema.anyOf ?? schema.oneOf ?? schema.allOf;
  if (branches?.length) return generate(pick(rnd, branches), rnd, resolve, hints, depth + 1);
  const type = Array.isArray(schema.type) ? pick(rnd, schema.type) : (schema.type ?? (schema.properties ? 'object' : 'string'));
  switch (type) {
    case 'object': {
      const out: Record<string, unknown> = {};
      if (depth > 6) return out;
      for (const [key, sub] of Object.entries(schema.properties ?? {})) {
        if (!schema.required?.includes(key) && rnd() >= 0.6) continue;
        const hint = hints[key];
        out[key] = hint && rnd() < 0.7 ? hint() : generate(sub, rnd, resolve, hints, depth + 1);
      }
      return out;
    }
    case 'array': {
      if (depth > 6) return [];
      const min = schema.minItems ?? 0;
      const n = int(rnd, min, Math.min(schema.maxItems ?? min + 3, min + 3));
      return Array.from({ length: n }, () => generate(schema.items ?? {}, rnd, resolve, hints, depth + 1));
    }
    case 'integer':
    case 'number': {
      const min = schema.minimum ?? 0;
      const max = schema.maximum ?? min + 1000;
      const v = min + rnd() * (max - min);
      return type === 'integer' ? Math.round(v) : v;
    }
    case 'boolean':
      return rnd() < 0.5;
    case 'null':
      return null;
    default: {
      if (schema.format === 'email') return `f${int(rnd, 0, 1e6)}@example.test`;
      if (schema.format === 'uri') return `https://example.test/${int(rnd, 0, 1e6)}`;
      const min = schema.minLength ?? 1;
      const max = Math.min(schema.maxLength ?? 24, min + 24);
      return Array.from({ length: int(rnd, min, Math.max(min, max)) }, () => pick(rnd, ALPHABET)).join('');
    }
  }
}

/** Wrong-typed or extreme stand-ins for a value. */
function weird(rnd: Rng, otherRealm: string): unknown {
  return pick(rnd, [
    null,
    true,
    -1,
    0,
    1e308,
    -1e308,
    2 ** 53 + 1,
    1.5,
    'NaN',
    [],
    {},
    [null],
    { $gt: '' },
    'x'.repeat(20_000),
    pick(rnd, JUNK),
    otherRealm,
    { realmId: otherRealm },
  ]);
}

/** Fields a request must never be able to set (A-40 mass assignment). */
const MASS_ASSIGNMENT = (otherRealm: string): [string, unknown][] => [
  ['realmId', otherRealm],
  ['realm_id', otherRealm],
  ['isSuperAdmin', true],
  ['admin', true],
  ['builtin', true],
  ['permissions', [{ permissionId: 'outbox', actions: ['query'] }]],
  ['roles', ['admin']],
  ['kind', 'service'],
  ['owner_id', 'x'],
  ['ownerId', 'x'],
  ['id', 'admin'],
  ['password_hash', 'x'],
  ['disabled', 0],
];

/** One body to send: a JSON text (sometimes not valid JSON at all). */
export function mutate(valid: unknown, rnd: Rng, otherRealm: string): string {
  const roll = rnd();
  if (roll < 0.1)
    return pick(rnd, ['{"a":', '[', 'null', '"text"', '42', '{}}', '\u0000', '{"__proto__":{"admin":true}}', '{"constructor":{"prototype":{"admin":true}}}']);
  if (roll < 0.15) {
    let deep: unknown = {};
    for (let i = 0; i < 300; i++) deep = { a: deep };
    return JSON.stringify(deep);
  }
  const body = valid && typeof valid === 'object' && !Array.isArray(valid) ? { ...(valid as Record<string, unknown>) } : valid;
  if (!body || typeof body !== 'object' || Array.isArray(body)) return JSON.stringify(rnd() < 0.5 ? body : weird(rnd, otherRealm));
  const obj = body as Record<string, unknown>;
  const keys = Object.keys(obj);
  const changes = int(rnd, 1, 3);
  for (let i = 0; i < changes; i++) {
    const what = rnd();
    if (what < 0.3 && keys.length) delete obj[pick(rnd, keys)];
    else if (what < 0.6) {
      const [k, v] = pick(rnd, MASS_ASSIGNMENT(otherRealm));
      obj[k] = v;
    } else if (keys.length) obj[pick(rnd, keys)] = weird(rnd, otherRealm);
    else obj[pick(rnd, ALPHABET)] = weird(rnd, otherRealm);
  }
  // about a third of the bodies stay as generated: the accepting paths get exercised too
  return JSON.stringify(rnd() < 0.3 ? valid : obj);
}
