/**
 * What the upstream sign-in suites stand on (issue 14 "Tests"):
 *   - a real upstream OpenID provider, `oidc-provider` (panva, certified), on a random
 *     127.0.0.1 port; its login and consent are finished programmatically (the test names
 *     who signs in), everything else is the provider's own code;
 *   - a hand-made upstream whose token endpoint answers ID tokens with one thing wrong at a
 *     time (issuer, audience, nonce, signing key, expiry), for the negative cases
 *     oidc-provider will not produce;
 *   - a browser-like walk over HTTP with one cookie jar per origin.
 */
/// <reference path="./oidc-provider.d.ts" />
import http from 'node:http';
import type net from 'node:net';
import * as jose from 'jose';
import Provider from 'oidc-provider';

export interface UpstreamUser {
  email?: string;
  email_verified?: boolean;
  preferred_username?: string;
}

export interface Idp {
  issuer: string;
  wellKnown: string;
  clientId: string;
  clientSecret: string;
  users: Map<string, UpstreamUser>;
  /** who the next login at the upstream is */
  next: { sub: string };
  /** requests the upstream received */
  hits: string[];
  close(): Promise<void>;
}

function listen(server: http.Server): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as net.AddressInfo).port)));
}

/** oidc-provider as the realm's upstream, its client registered for `redirectUris`. */
export async function startOidcProvider(redirectUris: string[]): Promise<Idp> {
  const users = new Map<string, UpstreamUser>();
  const next = { sub: '' };
  const hits: string[] = [];
  const server = http.createServer();
  const port = await listen(server);
  const issuer = `http://127.0.0.1:${port}`;
  const clientId = 'umbo-rp';
  const clientSecret = 'upstream-Secret-' + Math.random().toString(36).slice(2);
  const signing = await jose.generateKeyPair('RS256', { extractable: true });
  const provider = new Provider(issuer, {
    jwks: { keys: [{ ...(await jose.exportJWK(signing.privateKey)), kid: 'up-1', alg: 'RS256', use: 'sig' }] },
    clients: [{ client_id: clientId, client_secret: clientSecret, redirect_uris: redirectUris, grant_types: ['authorization_code'], response_types: ['code'] }],
    claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['preferred_username'] },
    // the claims in the ID token itself, as many upstreams send them
    conformIdTokenClaims: false,
    features: { devInteractions: { enabled: false } },
    cookies: { keys: ['upstream-test-cookie-key'] },
    findAccount: async (_ctx: unknown, sub: string) => {
      const u = users.get(sub);
      return u ? { accountId: sub, claims: async () => ({ sub, ...u }) } : undefined;
    },
  });
  const callback = provider.callback();
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    hits.push(req.url ?? '');
    if (!req.url?.startsWith('/interaction/')) return void callback(req, res);
    // the upstream's login and consent screens, answered for `next.sub`
    void (async () => {
      const details = await provider.interactionDetails(req, res);
      const grant = new provider.Grant({ accountId: next.sub, clientId: String(details.params.client_id) });
      grant.addOIDCScope(String(details.params.scope));
      const grantId = await grant.save();
      await provider.interactionFinished(req, res, { login: { accountId: next.sub }, consent: { grantId } }, { mergeWithLastSubmission: false });
    })().catch((err: unknown) => {
      res.statusCode = 500;
      res.end(String(err));
    });
  });
  return {
    issuer,
    wellKnown: `${issuer}/.well-known/openid-configuration`,
    clientId,
    clientSecret,
    users,
    next,
    hits,
    close: () => new Promise((r) => server.close(() => r())),
  };
}

export type TokenFlaw = 'none' | 'issuer' | 'audience' | 'nonce' | 'key' | 'expired';

export interface FakeIdp {
  issuer: string;
  wellKnown: string;
  clientId: string;
  /** what the next ID token gets wrong, and the nonce and subject it is for */
  token: { flaw: TokenFlaw; nonce: string; sub: string; email?: string; email_verified?: boolean };
  /** paths the upstream was asked for */
  hits: string[];
  /** discovery answers 503 while set */
  discoveryDown: boolean;
  /** a key rotation: a new signing key under a new kid, the only one in the JWKS from now on */
  rotate(): Promise<void>;
  close(): Promise<void>;
}

/** A minimal upstream: discovery, JWKS and a token endpoint whose ID token has `token.flaw`. */
export async function startFakeIdp(): Promise<FakeIdp> {
  const server = http.createServer();
  const port = await listen(server);
  const issuer = `http://127.0.0.1:${port}`;
  let published = await jose.generateKeyPair('ES256');
  let kid = 'k1';
  const stranger = await jose.generateKeyPair('ES256');
  const jwkOf = async () => ({ ...(await jose.exportJWK(published.publicKey)), kid, alg: 'ES256', use: 'sig' });
  let jwk = await jwkOf();
  const fake: FakeIdp = {
    issuer,
    wellKnown: `${issuer}/.well-known/openid-configuration`,
    clientId: 'umbo-fake-rp',
    token: { flaw: 'none', nonce: '', sub: 'fake-user' },
    hits: [],
    discoveryDown: false,
    async rotate() {
      published = await jose.generateKeyPair('ES256');
      kid = `k${Number(kid.slice(1)) + 1}`;
      jwk = await jwkOf();
    },
    close: () => new Promise((r) => server.close(() => r())),
  };
  const json = (res: http.ServerResponse, body: unknown) => {
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify(body));
  };
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const path = (req.url ?? '').split('?')[0]!;
    fake.hits.push(path);
    if (path === '/.well-known/openid-configuration' && fake.discoveryDown) {
      res.statusCode = 503;
      return void res.end();
    }
    if (path === '/.well-known/openid-configuration') {
      return json(res, {
        issuer,
        authorization_endpoint: `${issuer}/authorize`,
        token_endpoint: `${issuer}/token`,
        jwks_uri: `${issuer}/jwks`,
        response_types_supported: ['code'],
        subject_types_supported: ['public'],
        id_token_signing_alg_values_supported: ['ES256'],
        code_challenge_methods_supported: ['S256'],
        token_endpoint_auth_methods_supported: ['client_secret_post', 'client_secret_basic'],
      });
    }
    if (path === '/jwks') return json(res, { keys: [jwk] });
    if (path === '/token' && req.method === 'POST') {
      req.resume();
      req.on('end', () => {
        void (async () => {
          const t = fake.token;
          const now = Math.floor(Date.now() / 1000);
          const idToken = await new jose.SignJWT({
            nonce: t.flaw === 'nonce' ? 'not-the-nonce-sent' : t.nonce,
            ...(t.email ? { email: t.email, email_verified: t.email_verified ?? false } : {}),
          })
            .setProtectedHeader({ alg: 'ES256', kid, typ: 'JWT' })
            .setIssuer(t.flaw === 'issuer' ? 'http://127.0.0.1:1/another-issuer' : issuer)
            .setAudience(t.flaw === 'audience' ? 'another-client' : fake.clientId)
            .setSubject(t.sub)
            .setIssuedAt(t.flaw === 'expired' ? now - 7200 : now)
            .setExpirationTime(t.flaw === 'expired' ? now - 3600 : now + 300)
            .sign(t.flaw === 'key' ? stranger.privateKey : published.privateKey);
          json(res, { access_token: 'upstream-access', token_type: 'Bearer', expires_in: 300, id_token: idToken });
        })();
      });
      return;
    }
    res.statusCode = 404;
    res.end();
  });
  return fake;
}

/** One cookie jar per origin, as a browser keeps them (paths ignored: the tests need no more). */
export class Browser {
  private jars = new Map<string, Map<string, string>>();

  cookie(origin: string, name: string): string | undefined {
    return this.jars.get(origin)?.get(name);
  }

  setCookie(origin: string, name: string, value: string): void {
    const jar = this.jars.get(origin) ?? new Map<string, string>();
    jar.set(name, value);
    this.jars.set(origin, jar);
  }

  /** One GET, no redirect followed; cookies stored. */
  async get(url: string): Promise<{ status: number; location: string | undefined; url: string }> {
    const u = new URL(url);
    const jar = this.jars.get(u.host) ?? new Map<string, string>();
    this.jars.set(u.host, jar);
    const cookie = [...jar].map(([k, v]) => `${k}=${v}`).join('; ');
    const res = await fetch(url, { redirect: 'manual', headers: cookie ? { cookie } : {} });
    for (const line of res.headers.getSetCookie()) {
      const [pair, ...attrs] = line.split(';');
      const eq = pair!.indexOf('=');
      const name = pair!.slice(0, eq).trim();
      const value = pair!.slice(eq + 1).trim();
      const expired = attrs.some((a) => /^\s*(max-age=0|expires=thu, 01 jan 1970)/i.test(a));
      if (expired || value === '') jar.delete(name);
      else jar.set(name, value);
    }
    await res.arrayBuffer();
    const location = res.headers.get('location') ?? undefined;
    return { status: res.status, location: location ? new URL(location, url).href : undefined, url };
  }

  /** Follows 3xx while they stay off `until`'s origin; answers the first URL on it. */
  async follow(url: string, until: string): Promise<string> {
    let at = url;
    for (let i = 0; i < 10; i++) {
      const r = await this.get(at);
      if (!r.location) throw new Error(`${at} answered ${r.status} without a redirect`);
      if (new URL(r.location).host === new URL(until).host) return r.location;
      at = r.location;
    }
    throw new Error('too many redirects');
  }
}
