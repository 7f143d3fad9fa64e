/**
 * The issue-12 bench's umbo side, seeded through the services before the server starts (same
 * DATA_DIR / DATABASE_URL, MASTER_KEY and PUBLIC_URL as the server, from the environment):
 * a realm, a confidential client allowed client_credentials (client_secret_basic, ES256), a
 * person of the realm and an access token of theirs (openid profile email) for the userinfo
 * load, minted the way the grants mint (oauth/tokens/mint.ts). Prints one JSON line:
 * { realmId, clientId, clientSecret, scope, userAccessToken }.
 *
 * Run by scripts/bench/oauth.mjs: node --import tsx scripts/bench/oauth-seed.ts
 */
import '../../apps/server/src/platform/threadpool.js';
import { clientCreateBody } from '@umbo/contracts';
import { hashPassword } from '../../apps/server/src/auth/passwords.js';
import { systemClock } from '../../apps/server/src/platform/clock.js';
import { loadConfig } from '../../apps/server/src/platform/config.js';
import { openProduct } from '../../apps/server/src/open.js';
import { defaultRealmSettings } from '../../apps/server/src/realms/realm-settings.js';

const REALM = 'oauthbench';
const { dbh, ctx } = await openProduct(loadConfig(), systemClock);
const { repos, services } = ctx;
try {
  const now = systemClock.now();
  await repos.realms.insertRealm({
    id: REALM,
    name: REALM,
    description: 'issue 12 bench',
    settings: JSON.stringify(defaultRealmSettings()),
    created_at: now,
    updated_at: now,
  });
  await services.clients.ensureDefault(REALM);
  const created = await services.clients.create(
    { realmId: REALM },
    { actor: null },
    clientCreateBody.parse({
      name: 'bench service',
      desc: 'client_credentials bench client',
      authCodeMulitUse: false,
      tokenExpirSec: 3600,
      refreshtokenExpirSec: 86400,
      refreshTokenRecreate: true,
      redirectUris: ['https://bench.example/cb'],
      grantTypes: ['client_credentials', 'authorization_code', 'refresh_token'],
      tokenEndpointAuthMethod: 'client_secret_basic',
      consentRequired: false,
    }),
  );
  const client = await repos.clients.findByClientId(REALM, created.client.clientId);
  if (!client || !created.clientSecret) throw new Error('the bench client was not created');

  const person = await repos.accounts.insertPerson({
    realmId: REALM,
    username: 'benchuser',
    passwordHash: await hashPassword('Bench-user-pass-1'),
    email: 'bench.user@example.test',
    now,
  });
  const { mint } = services.oauthTokens;
  const issued = await mint.issue({
    client,
    grantType: 'authorization_code',
    scope: 'openid profile email',
    subject: { account: person, authTime: now, sid: null },
    now,
  });
  await mint.save(issued);
  process.stdout.write(
    `${JSON.stringify({ realmId: REALM, clientId: client.clientId, clientSecret: created.clientSecret, scope: '', userAccessToken: issued.response.access_token })}\n`,
  );
} finally {
  await ctx.close();
  await dbh.close();
}
