/**
 * The Aliyun API gateway's request signature (digest signature, "摘要签名"), as its
 * documentation describes it: help.aliyun.com/document_detail/29475 ("使用摘要签名认证方式调用
 * API"), repeated for the Link platforms in help.aliyun.com/zh/linkvisual/…/signing-mechanism.
 *
 *   stringToSign = HTTPMethod "\n" Accept "\n" Content-MD5 "\n" Content-Type "\n" Date "\n"
 *                  Headers PathAndParameters
 *   Headers      = for each signed header, sorted by name: name ":" value "\n"  (empty when none)
 *   PathAndParameters = Path, then "?" and the query and form parameters sorted by key,
 *                  "k=v" joined by "&" ("k" alone when the value is empty)
 *   X-Ca-Signature = base64(HMAC-SHA256(AppSecret, UTF-8(stringToSign)))
 *
 * Content-MD5 is base64(MD5(body)) and is sent only for a body that is not a form. The names
 * of the signed headers go, comma-separated, in X-Ca-Signature-Headers; Accept, Content-MD5,
 * Content-Type, Date and the signature headers themselves are never in that list. We send and
 * sign the header names in lower case, as the documentation's worked example does (HTTP header
 * names are case-insensitive and arrive lower-cased at the gateway).
 *
 * The gateway accepts X-Ca-Timestamp within 15 minutes and refuses a repeated X-Ca-Nonce
 * within that window; both are signed.
 */
import crypto from 'node:crypto';

export interface GatewayRequestParts {
  method: string;
  accept: string;
  contentMd5: string;
  contentType: string;
  date: string;
  /** the signed headers, names lower case */
  headers: Record<string, string>;
  path: string;
  /** query and form parameters together (the gateway sorts them as one list) */
  params?: Record<string, string>;
}

/** Headers never listed in X-Ca-Signature-Headers (the documentation's exclusion list). */
export const UNSIGNED_HEADERS = new Set(['x-ca-signature', 'x-ca-signature-headers', 'accept', 'content-md5', 'content-type', 'date']);

export function contentMd5(body: string): string {
  return crypto.createHash('md5').update(body, 'utf8').digest('base64');
}

function pathAndParameters(path: string, params: Record<string, string> = {}): string {
  const keys = Object.keys(params).sort();
  if (keys.length === 0) return path;
  return `${path}?${keys.map((k) => (params[k] ? `${k}=${params[k]}` : k)).join('&')}`;
}

export function stringToSign(p: GatewayRequestParts): string {
  const names = Object.keys(p.headers).sort();
  const headers = names.map((n) => `${n}:${p.headers[n] ?? ''}\n`).join('');
  return `${p.method.toUpperCase()}\n${p.accept}\n${p.contentMd5}\n${p.contentType}\n${p.date}\n${headers}${pathAndParameters(p.path, p.params)}`;
}

export function signString(secret: string, text: string): string {
  return crypto.createHmac('sha256', Buffer.from(secret, 'utf8')).update(text, 'utf8').digest('base64');
}

export interface SignInput {
  appKey: string;
  appSecret: string;
  method: 'POST';
  path: string;
  /** a JSON body (never a form: so Content-MD5 is sent) */
  body: string;
  now: number;
  nonce: string;
}

/** Every header a signed JSON POST carries, X-Ca-Signature included. */
export function signedJsonHeaders(i: SignInput): Record<string, string> {
  const accept = 'application/json; charset=utf-8';
  const contentType = 'application/json; charset=utf-8';
  const date = new Date(i.now).toUTCString();
  const md5 = contentMd5(i.body);
  const caHeaders: Record<string, string> = {
    'x-ca-key': i.appKey,
    'x-ca-nonce': i.nonce,
    'x-ca-signature-method': 'HmacSHA256',
    'x-ca-timestamp': String(i.now),
  };
  const text = stringToSign({ method: i.method, accept, contentMd5: md5, contentType, date, headers: caHeaders, path: i.path });
  return {
    accept,
    'content-type': contentType,
    'content-md5': md5,
    date,
    ...caHeaders,
    'x-ca-signature-headers': Object.keys(caHeaders).sort().join(','),
    'x-ca-signature': signString(i.appSecret, text),
  };
}
