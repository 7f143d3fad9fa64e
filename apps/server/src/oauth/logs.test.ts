/**
 * A-33 "never logged" for the OpenID provider (issue 12): a whole run — authorization code with
 * PKCE through the console's sign-in, redemption, a reused code, refresh, userinfo,
 * introspection, revocation, client_credentials with the secret in the header and in the body,
 * a wrong secret, RP-initiated logout with an id_token_hint in the query, the device grant with
 * its device and user codes — against the real app with its log captured at the most verbose
 * level. No code, verifier, token, secret, cookie or user code it used may appear in any line.
 */
import { DEVICE_GRANT_TYPE } from '@umbo/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createHarness, DB_TARGETS, type Harness } from '../test/harness.js';
import { as, createPerson, issueSession, settled } from '../test/kit.js';
import { codeRequest, makeClient, pkcePair, queryOf, signInThroughConsole } from './test/authorize.testkit.js';
import { basic, introspect, postForm, postToken, refresh, revoke } from './test/token.testkit.js';

const CLIENT_SECRET = 'Client-Secret-Log-4011';

for (const target of DB_TARGETS) {
  describe(`issue 12: the provider's secrets never reach the log [${target.dialect}]`, () => {
    const lines: string[] = [];
    let h: Harness & { dispose(): Promise<void> };
    beforeAll(async () => {
      h = await createHarness(target, { LOG_LEVEL: 'trace' }, { logDestination: { write: (s: string) => void lines.push(s) } });
    });
    afterAll(async () => h?.dispose());

    it('A-33 code + PKCE, refresh, userinfo, introspection, revocation, client_credentials, logout and the device grant: none in the log', async () => {
      const secrets: string[] = [CLIENT_SECRET];
      const keep = <T extends string | undefined>(s: T): T => (s && secrets.push(s), s);
      const client = await makeClient(h, 'master', {
        secretHash: h.ctx.secrets.hash('client-secret', CLIENT_SECRET),
        grantTypes: ['authorization_code', 'refresh_token', 'client_credentials'],
        postLogoutRedirectUris: ['https://app.test/bye'],
      });
      const user = await createPerson(h);
      const pkce = pkcePair();
      keep(pkce.verifier);

      // authorize → console sign-in → code
      const signIn = await signInThroughConsole(h, client, user, codeRequest(client, { code_challenge: pkce.challenge, code_challenge_method: 'S256' }));
      keep(signIn.consoleToken);
      keep(signIn.sso);
      expect(signIn.res.status, JSON.stringify(signIn.res.body)).toBe(200);
      const code = keep(queryOf(signIn.res.body.data.redirectTo).code!);
      const o = { client, secret: CLIENT_SECRET };
      const redeemed = await postToken(
        h,
        'master',
        { grant_type: 'authorization_code', code, redirect_uri: client.redirectUris[0]!, code_verifier: pkce.verifier },
        o,
      );
      expect(redeemed.status, redeemed.text).toBe(200);
      const { access_token: at, refresh_token: rt, id_token: idt } = redeemed.body as Record<string, string>;
      [at, rt, idt].forEach(keep);

      const refreshed = await refresh(h, client, rt!, {}, o);
      expect(refreshed.status, refreshed.text).toBe(200);
      keep(refreshed.body.access_token);
      keep(refreshed.body.refresh_token);
      const info = await h.app.inject({
        method: 'GET',
        url: '/realms/master/oauth/userinfo',
        headers: { authorization: `Bearer ${refreshed.body.access_token}` },
      });
      expect(info.statusCode).toBe(200);
      expect((await introspect(h, client, refreshed.body.access_token, o)).body.active).toBe(true);
      expect((await revoke(h, client, refreshed.body.refresh_token, o)).status).toBe(200);
      // a reused code (after the rest of its family's use): refused, and its error path logs nothing of it either
      expect(
        (await postToken(h, 'master', { grant_type: 'authorization_code', code, redirect_uri: client.redirectUris[0]!, code_verifier: pkce.verifier }, o))
          .status,
      ).toBe(400);

      // client_credentials: the secret in the Basic header, in the body, and a wrong one
      expect((await postToken(h, 'master', { grant_type: 'client_credentials' }, o)).status).toBe(200);
      const inBody = await postToken(h, 'master', { grant_type: 'client_credentials', client_id: client.clientId, client_secret: CLIENT_SECRET });
      expect(inBody.status, inBody.text).toBe(200);
      keep(inBody.body.access_token);
      const wrong = keep('Wrong-Secret-Log-4012');
      expect((await postToken(h, 'master', { grant_type: 'client_credentials' }, { client, secret: wrong })).status).toBe(401);

      // RP-initiated logout: the ID token travels in the query string
      const logout = await h.app.inject({
        method: 'GET',
        url: `/realms/master/oauth/logout?id_token_hint=${idt}&post_logout_redirect_uri=${encodeURIComponent('https://app.test/bye')}&state=s1`,
        headers: { cookie: `umbo_sso=${signIn.sso}` },
      });
      expect(logout.statusCode).toBe(303);

      // the device grant: device_code in the token request, user_code in the approval
      const device = await makeClient(h, 'master', { tokenEndpointAuthMethod: 'none', secretHash: null, grantTypes: [DEVICE_GRANT_TYPE] });
      const started = await postForm(h, '/realms/master/oauth/device_authorization', { client_id: device.clientId, scope: 'openid' });
      expect(started.status, started.text).toBe(200);
      const deviceCode = keep(started.body.device_code as string);
      const userCode = keep(started.body.user_code as string);
      keep(userCode.replace('-', ''));
      const approver = keep(await issueSession(h, user));
      expect((await as(h, approver).get(`/api/users/oauth/device?user_code=${userCode}`)).status).toBe(200);
      expect((await as(h, approver).post('/api/users/oauth/device', { user_code: userCode, approve: true })).status).toBe(200);
      const polled = await postToken(h, 'master', { grant_type: DEVICE_GRANT_TYPE, device_code: deviceCode, client_id: device.clientId });
      expect(polled.status, polled.text).toBe(200);
      keep(polled.body.access_token);
      await settled(h);

      const log = lines.join('');
      expect(log).toContain('/realms/master/oauth/token');
      const forms = (s: string) => [s, encodeURIComponent(s), basic(client.clientId, s).slice('Basic '.length)];
      expect(secrets.filter((s) => forms(s).some((f) => log.includes(f)))).toEqual([]);
    });
  });
}
