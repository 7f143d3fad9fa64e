/**
 * Compressed answers (issue 10): JSON/text compressed on the fly by Accept-Encoding, the built
 * console's assets sent pre-compressed from disk. A small Fastify instance with the platform
 * pieces involved (security headers for the nonce, compression, the SPA), no database.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Config } from './config.js';
import { markShared, negotiateEncoding, registerCompression } from './compression.js';
import { registerSecurityHeaders } from './security-headers.js';
import { registerSpa } from './spa.js';

describe('negotiateEncoding', () => {
  it.each([
    [undefined, 'identity'],
    ['', 'identity'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['x-gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.5, gzip;q=0.8', 'gzip'],
    ['br;q=0.8, gzip;q=0.8', 'br'],
    ['identity', 'identity'],
    ['deflate', 'identity'],
    ['*', 'br'],
    ['*;q=0', 'identity'],
    ['gzip;q=0, *', 'br'],
    ['br;q=0, gzip;q=0, *;q=1', 'identity'],
    [' GZIP ; Q=1 ', 'gzip'],
  ] as const)('%j → %s', (header, coding) => {
    expect(negotiateEncoding(header)).toBe(coding);
  });
});

const big = { items: Array.from({ length: 200 }, (_, i) => ({ id: `id-${i}`, name: `account ${i}`, enabled: i % 2 === 0 })) };

describe('compressed answers', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = Fastify({ logger: false });
    registerCompression(app);
    app.get('/big', async () => big);
    app.get('/small', async () => ({ result: 'ok', code: 0, data: 1 }));
    app.get('/vary', async (_req, reply) => reply.header('vary', 'accept-language').send(big));
    app.get('/stream-text', async (_req, reply) => reply.type('text/event-stream').send('data: x\n\n'.repeat(500)));
    app.get('/encoded', async (_req, reply) =>
      reply
        .type('application/json')
        .header('content-encoding', 'gzip')
        .send(zlib.gzipSync(JSON.stringify(big))),
    );
    app.get('/binary', async (_req, reply) => reply.type('image/png').send(Buffer.alloc(5000, 7)));
    app.get('/with-length', async (_req, reply) => {
      const body = JSON.stringify(big);
      return reply.type('application/json').header('content-length', Buffer.byteLength(body)).send(body);
    });
    await app.ready();
  });
  afterAll(() => app.close());

  it('sends JSON above 1 KiB as brotli when accepted, and says it varies', async () => {
    const res = await app.inject({ url: '/big', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(res.headers['vary']).toBe('accept-encoding');
    expect(res.headers['content-type']).toContain('application/json');
    expect(Number(res.headers['content-length'])).toBe(res.rawPayload.length);
    expect(res.rawPayload.length).toBeLessThan(JSON.stringify(big).length / 5);
    expect(JSON.parse(zlib.brotliDecompressSync(res.rawPayload).toString('utf8'))).toEqual(big);
  });

  it('sends gzip to a client without brotli', async () => {
    const res = await app.inject({ url: '/big', headers: { 'accept-encoding': 'gzip' } });
    expect(res.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(res.rawPayload).toString('utf8'))).toEqual(big);
  });

  it('sends the plain body, still with Vary, to a client that accepts no coding', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'br;q=0, gzip;q=0' }]) {
      const res = await app.inject({ url: '/big', headers });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['vary']).toBe('accept-encoding');
      expect(res.json()).toEqual(big);
    }
  });

  it('leaves small answers, event streams, binary and already encoded bodies alone', async () => {
    const small = await app.inject({ url: '/small', headers: { 'accept-encoding': 'br' } });
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(small.headers['vary']).toBeUndefined();
    expect(small.json()).toEqual({ result: 'ok', code: 0, data: 1 });
    const sse = await app.inject({ url: '/stream-text', headers: { 'accept-encoding': 'br' } });
    expect(sse.headers['content-encoding']).toBeUndefined();
    expect(sse.body).toBe('data: x\n\n'.repeat(500));
    const png = await app.inject({ url: '/binary', headers: { 'accept-encoding': 'br' } });
    expect(png.headers['content-encoding']).toBeUndefined();
    expect(png.rawPayload.length).toBe(5000);
    const encoded = await app.inject({ url: '/encoded', headers: { 'accept-encoding': 'br' } });
    expect(encoded.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(zlib.gunzipSync(encoded.rawPayload).toString('utf8'))).toEqual(big);
  });

  it('keeps an existing Vary and replaces a Content-Length set for the plain body', async () => {
    const vary = await app.inject({ url: '/vary', headers: { 'accept-encoding': 'br' } });
    expect(vary.headers['vary']).toBe('accept-language, accept-encoding');
    const sized = await app.inject({ url: '/with-length', headers: { 'accept-encoding': 'br' } });
    expect(sized.headers['content-encoding']).toBe('br');
    expect(Number(sized.headers['content-length'])).toBe(sized.rawPayload.length);
    expect(JSON.parse(zlib.brotliDecompressSync(sized.rawPayload).toString('utf8'))).toEqual(big);
  });

  it('answers HEAD with the headers of the compressed GET', async () => {
    const get = await app.inject({ url: '/big', headers: { 'accept-encoding': 'br' } });
    const head = await app.inject({ method: 'HEAD', url: '/big', headers: { 'accept-encoding': 'br' } });
    expect(head.headers['content-encoding']).toBe('br');
    expect(head.headers['content-length']).toBe(get.headers['content-length']);
    expect(head.rawPayload.length).toBe(0);
  });
});

describe('shared bodies (sendSerialized)', () => {
  it('are compressed once per coding, and every answer decodes to the same bytes; a body made per request is compressed each time', async () => {
    const app = Fastify({ logger: false });
    registerCompression(app);
    const shared = markShared(Buffer.from(JSON.stringify(big)));
    app.get('/shared', async (_req, reply) => reply.type('application/json').send(shared));
    app.get('/fresh', async (_req, reply) => reply.type('application/json').send(Buffer.from(JSON.stringify(big))));
    const noise = markShared(crypto.randomBytes(4096));
    app.get('/noise', async (_req, reply) => reply.type('application/json').send(noise));
    await app.ready();
    const br = vi.spyOn(zlib, 'brotliCompressSync');
    const gz = vi.spyOn(zlib, 'gzipSync');
    try {
      for (let i = 0; i < 3; i++) {
        for (const [encoding, decode] of [
          ['br', zlib.brotliDecompressSync],
          ['gzip', zlib.gunzipSync],
        ] as const) {
          const res = await app.inject({ url: '/shared', headers: { 'accept-encoding': encoding } });
          expect(res.headers['content-encoding']).toBe(encoding);
          expect(decode(res.rawPayload).equals(shared)).toBe(true);
        }
        const plain = await app.inject({ url: '/shared' });
        expect(plain.headers['content-encoding']).toBeUndefined();
        expect(plain.rawPayload.equals(shared)).toBe(true);
      }
      expect([br.mock.calls.length, gz.mock.calls.length]).toEqual([1, 1]);
      for (let i = 0; i < 3; i++) await app.inject({ url: '/fresh', headers: { 'accept-encoding': 'br' } });
      expect(br.mock.calls.length).toBe(4);
      // bytes that do not get smaller go plain, and that is remembered too
      for (let i = 0; i < 3; i++) {
        const res = await app.inject({ url: '/noise', headers: { 'accept-encoding': 'br' } });
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.rawPayload.equals(noise)).toBe(true);
      }
      expect(br.mock.calls.length).toBe(5);
    } finally {
      br.mockRestore();
      gz.mockRestore();
      await app.close();
    }
  });
});

describe('compression in the onSend chain', () => {
  it('adds no asynchronous step: an async handler that sends without returning the reply still answers once', async () => {
    const app = Fastify({ logger: false });
    const errors: unknown[] = [];
    app.addHook('onError', async (_req, _reply, err) => void errors.push(err));
    // as platform/security-headers.ts: one async onSend hook before compression
    app.addHook('onSend', async (_req, reply, payload) => {
      reply.header('x-before', '1');
      return payload;
    });
    registerCompression(app);
    app.get('/no-return', async (_req, reply) => {
      await new Promise((r) => setImmediate(r));
      reply.status(200).send(big);
    });
    const res = await app.inject({ url: '/no-return', headers: { 'accept-encoding': 'br' } });
    await new Promise((r) => setTimeout(r, 20));
    await app.close();
    expect(errors).toEqual([]);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(zlib.brotliDecompressSync(res.rawPayload).toString('utf8'))).toEqual(big);
  });
});

describe('pre-compressed console assets', () => {
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-web-compressed-'));
  const appJs = `export const words = ${JSON.stringify(Array.from({ length: 400 }, (_, i) => `word-${i % 37}`))};\n`;
  const br = zlib.brotliCompressSync(appJs);
  const gz = zlib.gzipSync(appJs);
  let app: FastifyInstance;

  beforeAll(async () => {
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'index.html'), '<!doctype html><meta name="csp-nonce" content="__CSP_NONCE__"><div id="root"></div>');
    fs.writeFileSync(path.join(webDist, 'assets', 'app.js'), appJs);
    fs.writeFileSync(path.join(webDist, 'assets', 'app.js.br'), br);
    fs.writeFileSync(path.join(webDist, 'assets', 'app.js.gz'), gz);
    // below the build's 1 KiB threshold: no variants on disk
    fs.writeFileSync(path.join(webDist, 'assets', 'tiny.js'), 'export default 1;\n');
    const config = { webDist, publicUrl: 'http://localhost:8080', headerScriptGlobal: '', headerScriptChina: '' } as Config;
    app = Fastify({ logger: false });
    registerSecurityHeaders(app, config);
    registerCompression(app);
    await registerSpa(app, config);
    await app.ready();
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  it('sends the .br file to a brotli client, the .gz file to a gzip client, with the type of the original', async () => {
    const b = await app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(b.statusCode).toBe(200);
    expect(b.headers['content-encoding']).toBe('br');
    expect(b.headers['content-type']).toMatch(/^(application|text)\/javascript/);
    expect(b.headers['vary']).toBe('accept-encoding');
    expect(b.headers['cache-control']).toContain('immutable');
    expect(b.rawPayload.equals(br)).toBe(true);
    const g = await app.inject({ url: '/assets/app.js', headers: { 'accept-encoding': 'gzip' } });
    expect(g.headers['content-encoding']).toBe('gzip');
    expect(g.rawPayload.equals(gz)).toBe(true);
    expect(zlib.gunzipSync(g.rawPayload).toString('utf8')).toBe(appJs);
  });

  it('sends the plain file, with Vary, to a client that accepts neither', async () => {
    for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'deflate' }]) {
      const res = await app.inject({ url: '/assets/app.js', headers });
      expect(res.headers['content-encoding']).toBeUndefined();
      expect(res.headers['vary']).toBe('accept-encoding');
      expect(res.body).toBe(appJs);
    }
  });

  it('falls back to the plain file when no variant was written', async () => {
    const res = await app.inject({ url: '/assets/tiny.js', headers: { 'accept-encoding': 'br, gzip' } });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.body).toBe('export default 1;\n');
  });

  it('does not serve the variants by their own names', async () => {
    for (const url of ['/assets/app.js.br', '/assets/app.js.gz']) {
      expect((await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } })).statusCode).toBe(404);
    }
  });

  it('asks for no nonce for a page without the placeholder', async () => {
    const plainDist = fs.mkdtempSync(path.join(os.tmpdir(), 'umbo-web-plain-'));
    fs.writeFileSync(path.join(plainDist, 'index.html'), '<!doctype html><div id="root"></div>');
    const config = { webDist: plainDist, publicUrl: 'http://localhost:8080', headerScriptGlobal: '', headerScriptChina: '' } as Config;
    const plain = Fastify({ logger: false });
    registerSecurityHeaders(plain, config);
    await registerSpa(plain, config);
    const res = await plain.inject({ url: '/account/center' });
    await plain.close();
    fs.rmSync(plainDist, { recursive: true, force: true });
    expect(res.body).toBe('<!doctype html><div id="root"></div>');
    expect(String(res.headers['content-security-policy'])).not.toContain('nonce-');
  });

  it('serves index.html only with its nonce filled in, also by its own name', async () => {
    for (const url of ['/', '/account/center', '/index.html']) {
      const res = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).not.toContain('__CSP_NONCE__');
      const nonce = /content="([^"]+)"/.exec(res.body)?.[1];
      expect(String(res.headers['content-security-policy'])).toContain(`'nonce-${nonce}'`);
    }
  });
});
