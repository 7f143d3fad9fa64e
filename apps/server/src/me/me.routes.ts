/**
 * The signed-in user's own account under /api/users/account (SPEC §3 "Account centre",
 * SPEC §2 settings pages). HTTP only; rules in me.service.ts. Access 'session': the
 * account is always the session's own, never one named in the request.
 */
import {
  accountInfo,
  accountSettings,
  avatarResult,
  avatarUploadBody,
  changeOwnPasswordBody,
  sessionList,
  sessionParams,
  updateAccountBody,
  updateAccountSettingsBody,
} from '@umbo/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { authOf, failEnvelope, ok, okEnvelope, responses, sendSerialized, serializeWith } from '../platform/http.js';
import { requestLocale } from '../platform/i18n.js';
import type { MeService } from './me.service.js';

const tags = ['account'];
const infoAnswer = okEnvelope(accountInfo);

export function registerMeRoutes(app: FastifyInstance, deps: { me: MeService }) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const s = deps.me;

  r.get(
    '/api/users/account',
    {
      // the account centre is "user info" too: a service account reaches it before its first password change
      config: { access: 'session', allowWhilePasswordChangeRequired: true },
      schema: { tags, summary: 'The account centre: account mark, id, domain, last login and registration, OTP state', response: responses(accountInfo) },
    },
    async (req, reply) => {
      const auth = authOf(req);
      // The answer comes from the account, its realm and its OTP state, which all bump the auth
      // epoch when they change (migrations 0021, 0031, 0034): it is built and serialized once per
      // guard cache entry (issue 11).
      let body = auth.memo.get('me.account') as Buffer | undefined;
      if (body === undefined) auth.memo.set('me.account', (body = serializeWith(infoAnswer, ok(await s.info(auth.account)))));
      return sendSerialized(reply, body);
    },
  );

  r.patch(
    '/api/users/account',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary:
          "Change the user name (3-24, must differ: 1009; taken: 1205; service accounts: 1003) and/or the avatar URL ('' clears it). Other fields are ignored",
        body: updateAccountBody,
        response: responses(accountInfo),
      },
    },
    async (req) => ok(await s.update(authOf(req).account, req.body)),
  );

  r.put(
    '/api/users/account/avatar',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Upload an avatar: a jpeg or png data URL of at most 4 KB (SPEC §5; 1013 when larger, 1009 when not a jpeg/png); answers its URL',
        body: avatarUploadBody,
        response: responses(avatarResult),
      },
    },
    async (req) => ok(await s.uploadAvatar(authOf(req).account, req.body.image)),
  );

  r.get(
    '/api/users/avatars/:realmId/:id',
    {
      // Avatars are shown in <img> tags, which carry no bearer token; the id is 190 random bits.
      config: { access: 'public' },
      schema: {
        tags,
        summary: 'An uploaded avatar image (png or jpeg only, never SVG)',
        params: z.object({ realmId: z.string().max(64), id: z.string().max(64) }),
        response: { 200: z.any().describe('the png or jpeg bytes'), '4xx': failEnvelope, '5xx': failEnvelope },
      },
    },
    async (req, reply) => {
      const file = await s.avatarFile(req.params.realmId, req.params.id);
      // served inert even if a browser were to sniff it as something else.
      reply.header('content-security-policy', "default-src 'none'; sandbox");
      reply.header('content-disposition', 'inline');
      reply.header('cache-control', 'public, max-age=86400, immutable');
      return reply.type(file.mime).send(file.bytes);
    },
  );

  r.post(
    '/api/users/account/password',
    {
      config: { access: 'session', allowWhilePasswordChangeRequired: true },
      schema: {
        tags,
        summary:
          'Change the password: old password (1010, throttled), new one ≥ 6 and the domain minimum, not a common password, not the old one (1021). Ends every other session; clears a forced change; sends a security notice (mail/SMS per the notification preferences)',
        body: changeOwnPasswordBody,
        response: responses(z.object({})),
      },
    },
    async (req) => {
      const auth = authOf(req);
      await s.changePassword(auth.account, auth.session, { ...req.body, ip: req.ip, locale: requestLocale(req) });
      return ok({});
    },
  );

  r.get(
    '/api/users/account/sessions',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'The live sessions of this account with device, IP, created and last seen; `current` marks this one',
        response: responses(sessionList),
      },
    },
    async (req) => {
      const auth = authOf(req);
      return ok(await s.listSessions(auth.account, auth.session));
    },
  );

  r.delete(
    '/api/users/account/sessions',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Sign out everywhere else: every other session of this account ends, and with them the sign-in tokens (ftokens) they issued',
        response: responses(z.object({ revoked: z.number() })),
      },
    },
    async (req) => {
      const auth = authOf(req);
      return ok({ revoked: await s.revokeOtherSessions(auth.account, auth.session) });
    },
  );

  r.delete(
    '/api/users/account/sessions/:id',
    {
      config: { access: 'session' },
      schema: { tags, summary: "End one of this account's sessions (1004 for any other id)", params: sessionParams, response: responses(z.object({})) },
    },
    async (req) => {
      await s.revokeSession(authOf(req).account, req.params.id);
      return ok({});
    },
  );

  r.get(
    '/api/users/account/settings',
    {
      config: { access: 'session' },
      schema: {
        tags,
        summary: 'Preferences kept on the server: language, theme, colour (settings "custom") and notifications',
        response: responses(accountSettings),
      },
    },
    async (req) => ok(await s.getSettings(authOf(req).account)),
  );

  r.patch(
    '/api/users/account/settings',
    {
      config: { access: 'session' },
      schema: { tags, summary: 'Change some preferences; the rest stay', body: updateAccountSettingsBody, response: responses(accountSettings) },
    },
    async (req) => ok(await s.updateSettings(authOf(req).account, req.body)),
  );
}
