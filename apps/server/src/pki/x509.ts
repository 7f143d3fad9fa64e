/**
 * The one import of @peculiar/x509 (issue 13). Its 2.x builds on tsyringe, which needs the
 * Reflect metadata polyfill loaded before it; ES modules evaluate imports in order, so this file
 * imports the polyfill first, and everything else imports x509 from here. The library signs and
 * verifies through WebCrypto: Node's own implementation.
 */
import 'reflect-metadata';
import * as x509 from '@peculiar/x509';

x509.cryptoProvider.set(globalThis.crypto);

export { x509 };

/**
 * The bytes as an ArrayBuffer-backed view, as the libraries' DOM-typed signatures want (Node's
 * Buffer may sit on a shared pool, typed ArrayBufferLike). Copies only when it must.
 */
export function asn(u: Uint8Array): Uint8Array<ArrayBuffer> {
  return u.buffer instanceof ArrayBuffer && u.byteOffset === 0 && u.byteLength === u.buffer.byteLength ? (u as Uint8Array<ArrayBuffer>) : new Uint8Array(u);
}
