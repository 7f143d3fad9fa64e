/**
 * Which addresses an outbound call may reach (AS-26, A-37). The decision is made on the
 * address BYTES, never on its text: `::ffff:127.0.0.1`, `::ffff:7f00:1` and
 * `0:0:0:0:0:ffff:7f00:1` are one address, and a regex over one spelling misses the others
 * (the WHATWG URL parser writes the hex form). IPv6 addresses that carry an IPv4 address
 * are decided as that IPv4 address. Ranges come from the IANA special-purpose registries
 * (RFC 6890 and its updates); anything we cannot parse is refused.
 */

type Bytes = Uint8Array;

/** Dotted quad only, four decimal parts without leading zeros (`010` is octal to inet_aton). */
export function parseIPv4(text: string): Bytes | null {
  const parts = text.split('.');
  if (parts.length !== 4) return null;
  const out = new Uint8Array(4);
  for (let i = 0; i < 4; i++) {
    const p = parts[i]!;
    if (!/^(0|[1-9]\d{0,2})$/.test(p) || Number(p) > 255) return null;
    out[i] = Number(p);
  }
  return out;
}

/**
 * The three text forms of RFC 4291 §2.2: eight groups, `::` for a run of zero groups, and
 * a dotted IPv4 address as the last 32 bits. Hex is case-insensitive. Zone ids (`%eth0`)
 * are not addresses and are rejected here.
 */
export function parseIPv6(text: string): Bytes | null {
  const halves = text.split('::');
  if (halves.length > 2) return null;
  const groups = (half: string): number[] | null => {
    if (half === '') return [];
    const parts = half.split(':');
    const out: number[] = [];
    for (let i = 0; i < parts.length; i++) {
      const p = parts[i]!;
      if (i === parts.length - 1 && p.includes('.')) {
        const v4 = parseIPv4(p);
        if (!v4) return null;
        out.push((v4[0]! << 8) | v4[1]!, (v4[2]! << 8) | v4[3]!);
      } else if (/^[0-9a-fA-F]{1,4}$/.test(p)) {
        out.push(parseInt(p, 16));
      } else {
        return null;
      }
    }
    return out;
  };
  const head = groups(halves[0]!);
  const tail = halves.length === 2 ? groups(halves[1]!) : [];
  if (!head || !tail) return null;
  // A dotted part is only allowed at the very end of the address.
  if (halves.length === 2 && halves[0]!.includes('.')) return null;
  const given = head.length + tail.length;
  if (halves.length === 1 ? given !== 8 : given > 7) return null;
  const all = [...head, ...new Array<number>(8 - given).fill(0), ...tail];
  const out = new Uint8Array(16);
  all.forEach((g, i) => {
    out[2 * i] = g >> 8;
    out[2 * i + 1] = g & 0xff;
  });
  return out;
}

interface Range {
  prefix: Bytes;
  bits: number;
  why: string;
}

function range(cidr: string, why: string): Range {
  const [addr, bits] = cidr.split('/') as [string, string];
  const prefix = addr.includes(':') ? parseIPv6(addr) : parseIPv4(addr);
  if (!prefix) throw new Error(`bad range ${cidr}`);
  return { prefix, bits: Number(bits), why };
}

function inRange(ip: Bytes, r: Range): boolean {
  if (ip.length !== r.prefix.length) return false;
  const whole = r.bits >> 3;
  for (let i = 0; i < whole; i++) if (ip[i] !== r.prefix[i]) return false;
  const rest = r.bits & 7;
  if (rest === 0) return true;
  const mask = (0xff << (8 - rest)) & 0xff;
  return (ip[whole]! & mask) === (r.prefix[whole]! & mask);
}

/** IPv4 ranges never reached by default: RFC 6890 §2.2.2 and its updates, plus cloud metadata. */
const V4_BLOCKED: Range[] = [
  range('0.0.0.0/8', '"this network" (RFC 791, RFC 6890)'),
  range('10.0.0.0/8', 'private (RFC 1918)'),
  range('100.64.0.0/10', 'shared address space (RFC 6598), incl. Alibaba metadata 100.100.100.200'),
  range('127.0.0.0/8', 'loopback (RFC 1122 §3.2.1.3)'),
  range('169.254.0.0/16', 'link-local (RFC 3927), incl. cloud metadata 169.254.169.254'),
  range('172.16.0.0/12', 'private (RFC 1918)'),
  range('192.0.0.0/24', 'IETF protocol assignments (RFC 6890), incl. Oracle metadata 192.0.0.192'),
  range('192.0.2.0/24', 'documentation TEST-NET-1 (RFC 5737)'),
  range('192.88.99.0/24', 'deprecated 6to4 relay anycast (RFC 7526)'),
  range('192.168.0.0/16', 'private (RFC 1918)'),
  range('198.18.0.0/15', 'benchmarking (RFC 2544)'),
  range('198.51.100.0/24', 'documentation TEST-NET-2 (RFC 5737)'),
  range('203.0.113.0/24', 'documentation TEST-NET-3 (RFC 5737)'),
  range('224.0.0.0/4', 'multicast (RFC 5771)'),
  range('240.0.0.0/4', 'reserved (RFC 1112 §4)'),
  range('255.255.255.255/32', 'limited broadcast (RFC 919)'),
  // A public address, but the Azure host's WireServer / DNS / health endpoint, reachable
  // from every Azure VM: a metadata service in all but name.
  range('168.63.129.16/32', 'Azure WireServer'),
];

/**
 * IPv6 ranges never reached by default (RFC 6890 §2.2.3 and the IANA IPv6 special-purpose
 * registry). Forms that carry an IPv4 address we can decode are not here: see embeddedIPv4.
 * The first match names the reason, so specific entries come before the ranges holding them.
 */
const V6_BLOCKED: Range[] = [
  range('::/128', 'unspecified (RFC 4291 §2.5.2)'),
  range('::1/128', 'loopback (RFC 4291 §2.5.3)'),
  // Deprecated IPv4-compatible addresses (RFC 4291 §2.5.5.1): nothing legitimate uses them,
  // so they are refused whatever IPv4 address they hold.
  range('::/96', 'IPv4-compatible, deprecated (RFC 4291 §2.5.5.1)'),
  range('::ffff:0:0:0/96', 'IPv4-translated (RFC 2765 §2.1)'),
  // The local-use NAT64 prefix may embed IPv4 at any of the RFC 6052 §2.2 offsets and
  // translates into the operator's own network: refused outright.
  range('64:ff9b:1::/48', 'local-use NAT64 (RFC 8215)'),
  range('100::/64', 'discard-only (RFC 6666)'),
  // Teredo tunnels to an obfuscated IPv4 client behind a relay we do not control; no SMS
  // gateway or mail server lives there, so it is refused rather than decoded.
  range('2001::/32', 'Teredo (RFC 4380)'),
  range('2001:2::/48', 'benchmarking (RFC 5180)'),
  range('2001:db8::/32', 'documentation (RFC 3849)'),
  range('2001::/23', 'IETF protocol assignments (RFC 2928, RFC 6890)'),
  range('3fff::/20', 'documentation (RFC 9637)'),
  range('fd00:ec2::254/128', 'AWS instance metadata (IMDS over IPv6)'),
  range('fc00::/7', 'unique local (RFC 4193)'),
  range('fe80::/10', 'link-local (RFC 4291 §2.5.6)'),
  range('fec0::/10', 'site-local, deprecated (RFC 3879)'),
  range('ff00::/8', 'multicast (RFC 4291 §2.7)'),
];

const IPV4_MAPPED = range('::ffff:0:0/96', 'IPv4-mapped (RFC 4291 §2.5.5.2)');
const NAT64_WELL_KNOWN = range('64:ff9b::/96', 'NAT64 well-known prefix (RFC 6052 §2.1)');
const SIX_TO_FOUR = range('2002::/16', '6to4 (RFC 3056 §2)');
// Everything IANA has allocated for global unicast lies in 2000::/3 (RFC 4291 §2.4); an
// address outside it is reserved or special whether or not it is listed above.
const GLOBAL_UNICAST = range('2000::/3', 'global unicast (RFC 4291 §2.4)');

/**
 * The IPv4 address an IPv6 address stands for: IPv4-mapped `::ffff:a.b.c.d` (a dual-stack
 * socket connects to a.b.c.d itself), the NAT64 well-known prefix `64:ff9b::a.b.c.d`
 * (RFC 6052 §2.2, /96: the last 32 bits), and 6to4 `2002:aabb:ccdd::/48` (RFC 3056 §2:
 * bits 16–47).
 */
export function embeddedIPv4(ip: Bytes): Bytes | null {
  if (ip.length !== 16) return null;
  if (inRange(ip, IPV4_MAPPED) || inRange(ip, NAT64_WELL_KNOWN)) return ip.slice(12, 16);
  if (inRange(ip, SIX_TO_FOUR)) return ip.slice(2, 6);
  return null;
}

/** Why an address is refused by default, or null when it is a public unicast address. */
export function blockedReason(address: string): string | null {
  // A zone id scopes an address to one local link (RFC 4007 §11): never a public target.
  if (address.includes('%')) return 'scoped address (RFC 4007)';
  const v4 = parseIPv4(address);
  if (v4) return V4_BLOCKED.find((r) => inRange(v4, r))?.why ?? null;
  const v6 = parseIPv6(address);
  if (!v6) return 'not an IP address';
  const carried = embeddedIPv4(v6);
  if (carried) {
    const why = V4_BLOCKED.find((r) => inRange(carried, r))?.why;
    return why ? `${why}, embedded in IPv6` : null;
  }
  const listed = V6_BLOCKED.find((r) => inRange(v6, r));
  if (listed) return listed.why;
  return inRange(v6, GLOBAL_UNICAST) ? null : 'outside IPv6 global unicast (RFC 4291 §2.4)';
}

/** True for addresses an outbound call must not reach by default (and for non-addresses). */
export function isPrivateAddress(address: string): boolean {
  return blockedReason(address) !== null;
}
