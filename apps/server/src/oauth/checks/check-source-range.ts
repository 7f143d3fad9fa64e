/**
 * A client's allowed source ranges for client_credentials (SPEC §5: IPv4 addresses or CIDRs
 * with a mask 0–32): none registered means anywhere. The caller's address is Fastify's
 * `req.ip` (TRUST_PROXY decides whether X-Forwarded-For counts). An IPv4-mapped IPv6 address
 * (::ffff:10.0.0.1) is its IPv4 address; any other IPv6 address matches no IPv4 range.
 */
import { UnauthorizedClient } from '../errors.js';

function ipv4ToInt(ip: string): number | undefined {
  const m = /^(?:::ffff:)?(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/i.exec(ip);
  if (!m) return undefined;
  const parts = m.slice(1).map(Number);
  if (parts.some((p) => p > 255)) return undefined;
  return ((parts[0]! << 24) | (parts[1]! << 16) | (parts[2]! << 8) | parts[3]!) >>> 0;
}

export function ipInRanges(ip: string, ranges: readonly string[]): boolean {
  const addr = ipv4ToInt(ip);
  if (addr === undefined) return false;
  return ranges.some((range) => {
    const [base, bits = '32'] = range.split('/');
    const net = ipv4ToInt(base ?? '');
    const n = Number(bits);
    if (net === undefined || !Number.isInteger(n) || n < 0 || n > 32) return false;
    const mask = n === 0 ? 0 : (~0 << (32 - n)) >>> 0;
    return (addr & mask) >>> 0 === (net & mask) >>> 0;
  });
}

export function checkSourceRange(ranges: readonly string[], ip: string): void {
  if (ranges.length > 0 && !ipInRanges(ip, ranges)) throw new UnauthorizedClient('client_credentials is not allowed from this address');
}
