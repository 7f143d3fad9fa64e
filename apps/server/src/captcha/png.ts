/**
 * A minimal PNG encoder for the captcha (issue 8): 8-bit palette image, one IDAT, no
 * ancillary chunks. Written here rather than taken from a package because it is ~40 lines
 * over node:zlib, and the captcha then needs no native or platform-specific dependency.
 * The chunks are exactly IHDR, PLTE, IDAT, IEND: nothing besides pixels reaches the client.
 */
import zlib from 'node:zlib';

const SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

// zlib.crc32 needs Node 20.15+ and newer @types/node; the table is eight lines.
const CRC_TABLE = new Uint32Array(256).map((_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(buf: Uint8Array): number {
  let crc = 0xffffffff;
  for (let i = 0; i < buf.length; i++) crc = CRC_TABLE[(crc ^ buf[i]!) & 0xff]! ^ (crc >>> 8);
  return (crc ^ 0xffffffff) >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const out = Buffer.alloc(12 + data.length);
  out.writeUInt32BE(data.length, 0);
  out.write(type, 4, 'latin1');
  data.copy(out, 8);
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length);
  return out;
}

/**
 * `indices` holds one palette index per pixel, row by row; `palette` is [r, g, b] per entry
 * (at most 256).
 */
export function encodePalettePng(width: number, height: number, indices: Uint8Array, palette: readonly (readonly [number, number, number])[]): Buffer {
  if (indices.length !== width * height || palette.length === 0 || palette.length > 256) throw new Error('bad image');
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 3, 0, 0, 0], 8); // bit depth 8, colour type 3 (palette), deflate, filter 0, no interlace
  const plte = Buffer.from(palette.flat());
  // Each scanline starts with its filter type; 0 (none): the noise leaves little for filters to gain.
  const raw = Buffer.alloc((width + 1) * height);
  for (let y = 0; y < height; y++) raw.set(indices.subarray(y * width, (y + 1) * width), y * (width + 1) + 1);
  const idat = zlib.deflateSync(raw, { level: 6 });
  return Buffer.concat([SIGNATURE, chunk('IHDR', ihdr), chunk('PLTE', plte), chunk('IDAT', idat), chunk('IEND', Buffer.alloc(0))]);
}
