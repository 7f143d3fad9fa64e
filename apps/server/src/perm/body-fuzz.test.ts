/**
 * A-40 fuzz: for every administrative route (a `permissionId.action` rule) that takes a JSON
 * body, the administrator of master sends 50 bodies drawn from the route's own schema and
 * mutated (seeded: a failure names its seed and body). Never a 500; a route acting in a realm
 * named by its path never writes a row of another realm (audit events may only be added);
 * a route without one never changes or removes an existing row of a realm it does not name.
 * Routes are read from the registry and their schemas from the OpenAPI document at run time.
 */
import { expect, it } from 'vitest';
import type { RouteAccess } from '../auth/guard.js';
import { describeBothDbs } from '../test/harness.js';
import { seeded, generate, mutate, type JsonSchema } from './fuzz.testkit.js';
import { aimedAt, realmFixture } from './matrix.testkit.js';
import { rowsOutsideRealm } from './roles.testkit.js';

const BODIES_PER_ROUTE = 50;

type OpenApi = {
  paths: Record<string, Record<string, { requestBody?: { content?: Record<string, { schema?: JsonSchema }> } }>>;
  components?: { schemas?: Record<string, JsonSchema> };
};

/** Rows of `before` missing from `after`, and (unless only additions are allowed) rows of `after` not in `before`. */
function changed(before: Set<string>, after: Set<string>, additionsAllowed: boolean): string[] {
  const gone = [...before].filter((r) => !after.has(r));
  const added = [...after].filter((r) => !before.has(r) && !additionsAllowed && !r.startsWith('audit_events:'));
  return [...gone.map((r) => `- ${r}`), ...added.map((r) => `+ ${r}`)].map((s) => s.slice(0, 300));
}

describeBothDbs('A-40 fuzzed administrative bodies', (h) => {
  it('never answer 500 and never write into a realm the request does not act in', async () => {
    const doc = (await h().app.inject({ method: 'GET', url: '/api/docs/json' })).json() as OpenApi;
    const resolve = (ref: string) => doc.components?.schemas?.[ref.replace('#/components/schemas/', '')] ?? {};
    const schemaOf = (r: RouteAccess) =>
      doc.paths[r.url.replace(/:(\w+)/g, '{$1}')]?.[r.method.toLowerCase()]?.requestBody?.content?.['application/json']?.schema;
    const routes = h().app.accessRegistry.filter((r) => r.access.includes('.') && r.method !== 'GET' && schemaOf(r));
    expect(routes.length).toBeGreaterThan(5);
    const admin = await h().login();
    const bystander = await realmFixture(h());
    /** bodies a route accepted: the generator reaches past validation, not only into 1009 */
    const accepted = new Map<string, number>();

    for (const [index, r] of routes.entries()) {
      // a fresh realm per route: a deletion among the bodies leaves the next route its objects
      const target = await realmFixture(h());
      const req = aimedAt(r, target);
      const before = await rowsOutsideRealm(h(), target.realmId);
      const seed = 0x5eed0000 + index;
      const rnd = seeded(seed);
      const hints = {
        accountId: () => target.person.id,
        roleId: () => (rnd() < 0.5 ? target.roleId : 'realm-viewer'),
        ids: () => [target.person.id],
      };
      for (let i = 0; i < BODIES_PER_ROUTE; i++) {
        const body = mutate(generate(schemaOf(r)!, rnd, resolve, hints), rnd, rnd() < 0.5 ? 'master' : bystander.realmId);
        const res = await h().app.inject({
          method: req.method,
          url: req.url,
          headers: { authorization: `Bearer ${admin}`, 'content-type': 'application/json', 'accept-language': 'en' },
          payload: body,
        });
        expect(res.statusCode, `${r.method} ${r.url} seed ${seed} #${i} body ${body.slice(0, 300)} → ${res.body.slice(0, 300)}`).toBeLessThan(500);
        if (res.statusCode === 200) accepted.set(`${r.method} ${r.url}`, (accepted.get(`${r.method} ${r.url}`) ?? 0) + 1);
      }
      const after = await rowsOutsideRealm(h(), target.realmId);
      expect(changed(before, after, !r.realm), `${r.method} ${r.url} seed ${seed}`).toEqual([]);
    }
    console.log(`fuzzed ${routes.length} routes × ${BODIES_PER_ROUTE} bodies; accepted:`, Object.fromEntries(accepted));
    expect(accepted.size).toBeGreaterThan(2);
  }, 600_000);
});
