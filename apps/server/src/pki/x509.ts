/**
 * The one import of @peculiar/x509 (issue 13). Its 2.x builds on tsyringe, which needs the
 * Reflect metadata polyfill loaded before it, so this file loads the polyfill first, and
 * everything else takes x509 from here. The library signs and verifies through WebCrypto:
 * Node's own implementation.
 *
 * Loaded on first use, not at start: a server that never touches its certificate authority
 * never needs the library and its ASN.1 schemas, ~4 MB of heap for the life of the process
 * (issue 12 memory budget). `x509` stands for the module: the first property read requires it
 * (CommonJS, so synchronously, and the same instance an `import` would give); types are the
 * module's own, below.
 */
import type * as X509 from '@peculiar/x509';
import { onFirstUse } from '../platform/packages.js';

const loadPolyfill = onFirstUse<object>('reflect-metadata');
const load = onFirstUse<typeof X509>('@peculiar/x509', (lib) => lib.cryptoProvider.set(globalThis.crypto));

const x509 = new Proxy({} as typeof X509, {
  get: (_, key) => {
    loadPolyfill();
    return Reflect.get(load(), key);
  },
});

/** The library's types used as `x509.Name` in type positions (the value above carries none). */
declare namespace x509 {
  type X509Certificate = X509.X509Certificate;
  type Pkcs10CertificateRequest = X509.Pkcs10CertificateRequest;
  type JsonName = X509.JsonName;
  type Name = X509.Name;
  type Extension = X509.Extension;
  type GeneralName = X509.GeneralName;
  type PublicKey = X509.PublicKey;
  type BasicConstraintsExtension = X509.BasicConstraintsExtension;
  type SubjectAlternativeNameExtension = X509.SubjectAlternativeNameExtension;
  type SubjectKeyIdentifierExtension = X509.SubjectKeyIdentifierExtension;
}

export { x509 };

/**
 * The bytes as an ArrayBuffer-backed view, as the libraries' DOM-typed signatures want (Node's
 * Buffer may sit on a shared pool, typed ArrayBufferLike). Copies only when it must.
 */
export function asn(u: Uint8Array): Uint8Array<ArrayBuffer> {
  return u.buffer instanceof ArrayBuffer && u.byteOffset === 0 && u.byteLength === u.buffer.byteLength ? (u as Uint8Array<ArrayBuffer>) : new Uint8Array(u);
}
