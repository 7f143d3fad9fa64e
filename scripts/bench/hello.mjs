/**
 * The guard bench's yardstick: a bare Fastify hello-world (no hooks, no plugins), answering
 * the same envelope shape on PORT. Started pinned to the same core as the server under test.
 */
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/hello', async () => ({ result: 'ok', code: 0, data: { hello: 'world' } }));
app.get('/readyz', async () => ({ ok: true }));
await app.listen({ port: Number(process.env.PORT), host: '127.0.0.1' });
