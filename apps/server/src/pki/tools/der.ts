/**
 * A small DER reader and writer for the tools (PKCS#12, PKCS#7, decoding). The structures the
 * tools build are few and fixed; writing their bytes here keeps every choice (algorithms,
 * attributes) visible and testable with openssl, and the reader is strict: definite lengths
 * only, bounded nesting, nothing past the end — garbage is refused, never half-read.
 */

export class DerError extends Error {}

export interface Node {
  /** first identifier octet: class, constructed bit and tag number (low tag numbers only) */
  tag: number;
  /** content octets */
  value: Uint8Array;
  /** the whole TLV */
  raw: Uint8Array;
}

export const TAG = {
  BOOLEAN: 0x01,
  INTEGER: 0x02,
  BIT_STRING: 0x03,
  OCTET_STRING: 0x04,
  NULL: 0x05,
  OID: 0x06,
  UTF8: 0x0c,
  PRINTABLE: 0x13,
  IA5: 0x16,
  UTC_TIME: 0x17,
  GENERALIZED_TIME: 0x18,
  BMP: 0x1e,
  SEQUENCE: 0x30,
  SET: 0x31,
} as const;

/** [n] context-specific, constructed (EXPLICIT or a constructed IMPLICIT) */
export const ctx = (n: number) => 0xa0 | n;
/** [n] context-specific, primitive (IMPLICIT of a primitive type) */
export const ctxPrim = (n: number) => 0x80 | n;

const MAX_DEPTH = 32;

/** One TLV at `offset`; answers it and where the next one starts. */
function readAt(buf: Uint8Array, offset: number): { node: Node; end: number } {
  if (offset + 2 > buf.length) throw new DerError('truncated');
  const tag = buf[offset]!;
  if ((tag & 0x1f) === 0x1f) throw new DerError('high tag number');
  let len = buf[offset + 1]!;
  let p = offset + 2;
  if (len & 0x80) {
    const n = len & 0x7f;
    // 0x80 is BER's indefinite length; DER never uses it, and 4 octets is far past our limits
    if (n === 0 || n > 4) throw new DerError('bad length');
    if (p + n > buf.length) throw new DerError('truncated');
    len = 0;
    for (let i = 0; i < n; i++) len = len * 256 + buf[p + i]!;
    p += n;
  }
  const end = p + len;
  if (end > buf.length) throw new DerError('truncated');
  return { node: { tag, value: buf.subarray(p, end), raw: buf.subarray(offset, end) }, end };
}

/** Parses exactly one TLV filling all of `buf`. */
export function parse(buf: Uint8Array): Node {
  const { node, end } = readAt(buf, 0);
  if (end !== buf.length) throw new DerError('trailing data');
  return node;
}

/** The children of a constructed node. */
export function children(node: Node, depth = 0): Node[] {
  if (!(node.tag & 0x20)) throw new DerError('not constructed');
  if (depth > MAX_DEPTH) throw new DerError('too deep');
  const out: Node[] = [];
  let p = 0;
  while (p < node.value.length) {
    const { node: child, end } = readAt(node.value, p);
    out.push(child);
    p = end;
  }
  return out;
}

/** Children of a node that must have `tag`; throws otherwise. */
export function seq(node: Node | undefined, tag: number = TAG.SEQUENCE): Node[] {
  expectTag(node, tag);
  return children(node);
}

export function expectTag(node: Node | undefined, tag: number): asserts node is Node {
  if (!node || node.tag !== tag) throw new DerError(`expected tag 0x${tag.toString(16)}`);
}

/** Checks that every constructed node below `node` parses (a truncated inner length throws). */
export function walk(node: Node, depth = 0): void {
  if (!(node.tag & 0x20)) return;
  for (const c of children(node, depth)) walk(c, depth + 1);
}

// --- values -----------------------------------------------------------------------------

export function oidOf(node: Node | undefined): string {
  expectTag(node, TAG.OID);
  const v = node.value;
  if (v.length === 0) throw new DerError('empty oid');
  const parts: number[] = [];
  let n = 0;
  for (let i = 0; i < v.length; i++) {
    n = n * 128 + (v[i]! & 0x7f);
    if (!(v[i]! & 0x80)) {
      if (parts.length === 0) parts.push(n < 80 ? Math.floor(n / 40) : 2, n < 80 ? n % 40 : n - 80);
      else parts.push(n);
      n = 0;
    } else if (n > Number.MAX_SAFE_INTEGER / 128) throw new DerError('oid arc too large');
  }
  if (v[v.length - 1]! & 0x80) throw new DerError('truncated oid');
  return parts.join('.');
}

/** A non-negative INTEGER as a bigint (serials may be 20 octets). */
export function bigintOf(node: Node | undefined): bigint {
  expectTag(node, TAG.INTEGER);
  if (node.value.length === 0) throw new DerError('empty integer');
  let n = 0n;
  for (const b of node.value) n = (n << 8n) | BigInt(b);
  if (node.value[0]! & 0x80) n -= 1n << BigInt(node.value.length * 8);
  return n;
}

export function intOf(node: Node | undefined): number {
  const n = bigintOf(node);
  if (n > BigInt(Number.MAX_SAFE_INTEGER) || n < -BigInt(Number.MAX_SAFE_INTEGER)) throw new DerError('integer too large');
  return Number(n);
}

export const hex = (b: Uint8Array) => Buffer.from(b).toString('hex');
export const hexColons = (b: Uint8Array) => (Buffer.from(b).toString('hex').match(/../g) ?? []).join(':').toUpperCase();

// --- writing ----------------------------------------------------------------------------

function lengthOctets(n: number): Uint8Array {
  if (n < 0x80) return Uint8Array.of(n);
  const bytes: number[] = [];
  for (let v = n; v > 0; v = Math.floor(v / 256)) bytes.unshift(v & 0xff);
  return Uint8Array.of(0x80 | bytes.length, ...bytes);
}

export function tlv(tag: number, ...content: Uint8Array[]): Uint8Array {
  const body = Buffer.concat(content);
  return Buffer.concat([Uint8Array.of(tag), lengthOctets(body.length), body]);
}

export const sequence = (...items: Uint8Array[]) => tlv(TAG.SEQUENCE, ...items);
/** SET OF in DER order (sorted encodings) */
export const setOf = (...items: Uint8Array[]) => tlv(TAG.SET, ...[...items].sort((a, b) => Buffer.compare(a, b)));
export const octets = (b: Uint8Array) => tlv(TAG.OCTET_STRING, b);
export const explicit = (n: number, inner: Uint8Array) => tlv(ctx(n), inner);
export const nullValue = () => Uint8Array.of(TAG.NULL, 0);

export function integer(n: number | bigint): Uint8Array {
  let v = BigInt(n);
  if (v < 0n) throw new DerError('negative integers are not written here');
  const bytes: number[] = [];
  do {
    bytes.unshift(Number(v & 0xffn));
    v >>= 8n;
  } while (v > 0n);
  if (bytes[0]! & 0x80) bytes.unshift(0);
  return tlv(TAG.INTEGER, Uint8Array.from(bytes));
}

export function oid(dotted: string): Uint8Array {
  const arcs = dotted.split('.').map(Number);
  const out: number[] = [];
  const push = (n: number) => {
    const chunk: number[] = [n & 0x7f];
    for (let v = Math.floor(n / 128); v > 0; v = Math.floor(v / 128)) chunk.unshift(0x80 | (v & 0x7f));
    out.push(...chunk);
  };
  push(arcs[0]! * 40 + arcs[1]!);
  for (const a of arcs.slice(2)) push(a);
  return tlv(TAG.OID, Uint8Array.from(out));
}

/** AlgorithmIdentifier with the given parameters (none: absent). */
export const algorithm = (dotted: string, params?: Uint8Array) => (params ? sequence(oid(dotted), params) : sequence(oid(dotted)));
