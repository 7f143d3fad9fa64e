/**
 * Uploaded avatars (SPEC §5: jpeg, png or jpg, at most 4 KB). The type is read from the
 * bytes, never from the claimed MIME type, so nothing but a real PNG/JPEG is ever served
 * (no SVG: A-41).
 */
import { LIMITS } from '@umbo/contracts';
import { fail } from '../platform/errors.js';

const DATA_URL = /^data:image\/(png|jpe?g);base64,([A-Za-z0-9+/]+={0,2})$/;
const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
const JPEG = Buffer.from([0xff, 0xd8, 0xff]);

export interface AvatarImage {
  mime: 'image/png' | 'image/jpeg';
  bytes: Buffer;
}

/** A data URL → the image, or 1009 (format) / 1013 (over 4 KB). */
export function parseAvatar(dataUrl: string): AvatarImage {
  const m = DATA_URL.exec(dataUrl.trim());
  if (!m) throw fail('INVALID_PARAMETER', { field: 'image', reason: 'avatar_format' });
  const bytes = Buffer.from(m[2]!, 'base64');
  if (bytes.length > LIMITS.logoBytes) throw fail('PAYLOAD_TOO_LARGE', { field: 'image', maxBytes: LIMITS.logoBytes });
  if (bytes.subarray(0, PNG.length).equals(PNG)) return { mime: 'image/png', bytes };
  if (bytes.subarray(0, JPEG.length).equals(JPEG)) return { mime: 'image/jpeg', bytes };
  throw fail('INVALID_PARAMETER', { field: 'image', reason: 'avatar_format' });
}
