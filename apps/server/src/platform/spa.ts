/**
 * The built console: static assets, and index.html (nonce filled in) for every other GET
 * outside /api — history-mode routes (DESIGN.md §1). Unknown /api paths get the envelope 404.
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
  if (hasDist) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      index: false,
      wildcard: false,
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
    if (/\.[a-z0-9]{1,8}$/i.test(url)) return reply.status(404).type('text/plain').send('Not found');
    const html = indexHtml.replaceAll('__CSP_NONCE__', reply.cspNonce);
    return reply.status(200).type('text/html; charset=utf-8').header('cache-control', 'no-cache').send(html);
  });
}
