/**
 * The built console: static assets, and index.html for every other GET
 * outside /api — history-mode routes (DESIGN.md §1). Unknown /api paths get the envelope 404.
 *
 * Assets go pre-compressed (issue 10): the build writes `<file>.br` and `<file>.gz` beside
 * them (scripts/compress-assets.mjs) and @fastify/static picks one by Accept-Encoding, with
 * `Vary: Accept-Encoding`, falling back to the plain file. index.html is answered by the
 * handler below (with a per-response nonce where the page has the placeholder) and compressed,
 * once it is large enough to gain from it, by compression.ts.
 */
import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import { ErrorCodes } from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { Config } from './config.js';
import { envelope } from './errors.js';

const NOT_BUILT = `<!doctype html><html><head><meta charset="utf-8"><title>umbo</title></head>
<body><h1>umbo</h1><p>The console has not been built. Run <code>npm run build</code> (npm start does it for you).</p></body></html>`;

export async function registerSpa(app: FastifyInstance, config: Config): Promise<void> {
  const indexFile = path.join(config.webDist, 'index.html');
  const hasDist = fs.existsSync(indexFile);
  // Read once: the console does not change while the server runs.
  const indexHtml = hasDist ? fs.readFileSync(indexFile, 'utf8') : NOT_BUILT;
  const hasNoncePlaceholder = indexHtml.includes('__CSP_NONCE__');
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      index: false,
      wildcard: false,
      preCompressed: true,
      // wildcard: false makes a route per file found at start. The compressed variants are sent
      // in place of their originals, never by their own names; index.html only by the handler below.
      globIgnore: ['**/*.br', '**/*.gz', 'index.html'],
      // Hashed asset names may be cached for long; everything else revalidates.
      setHeaders(res, file) {
        res.header('cache-control', file.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const url = req.url.split('?')[0]!;
    const isApi = url === '/api' || url.startsWith('/api/') || url.startsWith('/realms/');
    if (isApi || (req.method !== 'GET' && req.method !== 'HEAD')) {
      return reply.status(404).send(envelope(req, ErrorCodes.NOT_FOUND));
    }
    // Files with an extension that do not exist are real 404s, not app routes.
    if (url !== '/index.html' && /\.[a-z0-9]{1,8}$/i.test(url)) return reply.status(404).type('text/plain').send('Not found');
    // Asking for the nonce puts it in this answer's CSP: only for a page that uses one.
    const html = hasNoncePlaceholder ? indexHtml.replaceAll('__CSP_NONCE__', reply.cspNonce) : indexHtml;
    return reply.status(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  });
}
