/**
 * The console's route tree (SPEC §2, DESIGN.md §5), as data: paths, names, access and menu.
 * The console maps each name to a screen; the server may use it to tell console paths from
 * unknown ones. A route's permission id is its name (SPEC §6).
 */
import type { PermissionId } from './permissions.js';
import type { Phrases } from './phrases/types.js';

/** Which menu a signed-in page belongs to (SPEC §2 "menu tree"). */
export type MenuArea = 'user' | 'domain';

/** Menu groups, each a phrase key under `menu`. */
export type MenuGroup = 'group_dashboard' | 'group_account' | 'group_domain' | 'group_cert';

export interface ConsoleRoute {
  /** Route name; for signed-in pages also the permission id. */
  name: string;
  path: string;
  /** Phrase key under `menu`; the document title is this plus the site title. */
  title: keyof Phrases['menu'];
  /** Public routes skip the sign-in check (SPEC §2 access rules). */
  public?: boolean;
  /** Login, registry, retrieve, reset and loginByFToken hide the page header (SPEC §2). */
  hideHeader?: boolean;
  permission?: PermissionId;
  area?: MenuArea;
  /** Present when the route is a menu entry (SPEC §2 menu tree, "in menu: yes"). */
  menu?: MenuGroup;
}

/** Redirect-only routes of SPEC §2. */
export const ROUTE_REDIRECTS: Readonly<Record<string, string>> = {
  '/': '/account/center',
  '/user': '/user/loginSSO',
  '/user/recover': '/retrieve',
  '/account': '/account/domain',
  '/account/cert': '/account/cert/list',
  '/dashboard': '/dashboard/workplace',
};

export const SIGN_IN_PATH = '/user/loginSSO';
export const HOME_PATH = '/account/center';
export const NOT_FOUND_PATH = '/404';

export const PUBLIC_ROUTES: readonly ConsoleRoute[] = [
  { name: 'loginSSO', path: '/user/loginSSO', title: 'login', public: true },
  // Issue 12: the OAuth consent screen (/user/consent?challenge=…), after /user/loginSSO; it proves the user with the console's session itself.
  { name: 'consent', path: '/user/consent', title: 'authcode', public: true },
  { name: 'register', path: '/user/register', title: 'register', public: true },
  { name: 'registerResult', path: '/user/register-result', title: 'registerResult', public: true },
  { name: 'login', path: '/login', title: 'login', public: true, hideHeader: true },
  { name: 'registry', path: '/registry', title: 'registry', public: true, hideHeader: true },
  { name: 'retrieve', path: '/retrieve', title: 'retrieve', public: true, hideHeader: true },
  { name: 'reset', path: '/reset', title: 'reset', public: true, hideHeader: true },
  { name: 'loginByFToken', path: '/loginByFToken', title: 'loginByFToken', public: true, hideHeader: true },
  {
    name: 'userRedirectAuthcode',
    path: '/newauth/user_redirect_authcode_by_users_authcode',
    title: 'authcode',
    public: true,
    hideHeader: true,
  },
  // Error pages answer anyone: an anonymous visitor to an unknown path lands on /404.
  { name: '403', path: '/403', title: 'exception403', public: true },
  { name: '404', path: '/404', title: 'exception404', public: true },
  { name: '500', path: '/500', title: 'exception500', public: true },
];

export const SIGNED_IN_ROUTES: readonly ConsoleRoute[] = [
  { name: 'center', path: '/account/center', title: 'center', permission: 'center', area: 'user', menu: 'group_account' },
  { name: 'security', path: '/account/security', title: 'security', permission: 'security', area: 'user', menu: 'group_account' },
  { name: 'userClient', path: '/user/client', title: 'userClient', permission: 'userClient', area: 'user' },
  // Issue 11: a person's own service accounts (DESIGN.md §4), for holders of userService.
  { name: 'userService', path: '/user/service', title: 'userService', permission: 'userService', area: 'user', menu: 'group_account' },
  // Issue 12: the signed-in user's own OAuth records, with revoke: every account, for itself.
  { name: 'myOAuth', path: '/user/oauth', title: 'myOAuth', area: 'user', menu: 'group_account' },
  // Issue 12: SPEC §2 "developer page" (how to integrate), for holders of userClient (showDeveloper).
  { name: 'developer', path: '/user/developer', title: 'developer', permission: 'userClient', area: 'user', menu: 'group_account' },
  // Issue 12: approving a device's user code (RFC 8628 §3.3). Any signed-in account, for itself;
  // reached from the device's verification_uri, so no menu entry.
  { name: 'device', path: '/device', title: 'device', area: 'user' },
  { name: 'domain', path: '/account/domain', title: 'domain', permission: 'domain', area: 'domain', menu: 'group_domain' },
  { name: 'domainCert', path: '/account/domain/cert', title: 'domainCert', permission: 'domainCert', area: 'domain', menu: 'group_domain' },
  { name: 'service', path: '/account/service', title: 'service', permission: 'service', area: 'domain' },
  { name: 'person', path: '/account/person', title: 'person', permission: 'person', area: 'domain' },
  { name: 'client', path: '/account/client', title: 'client', permission: 'client', area: 'domain' },
  { name: 'oauthList', path: '/account/oauthList', title: 'oauthList', permission: 'oauthList', area: 'domain' },
  { name: 'certList', path: '/account/cert/list', title: 'certList', permission: 'certList', area: 'domain', menu: 'group_cert' },
  { name: 'keys', path: '/account/cert/keys', title: 'keys', permission: 'keys', area: 'domain', menu: 'group_cert' },
  { name: 'tools', path: '/account/cert/other', title: 'tools', permission: 'tools', area: 'domain', menu: 'group_cert' },
  { name: 'certRecord', path: '/account/cert/certRecord', title: 'certRecord', permission: 'certRecord', area: 'domain' },
  // Master-realm administrators' mail/SMS outbox (issue 3); not in SPEC's menu table, listed
  // under the domain group for holders of outbox.query.
  { name: 'outbox', path: '/account/outbox', title: 'outbox', permission: 'outbox', area: 'domain', menu: 'group_domain' },
  // Issue 11: roles and assignments, the audit log, and SPEC §2's dashboard (analysis,
  // monitor, workplace), listed under "other screens" without routes; paths are ours.
  { name: 'role', path: '/account/role', title: 'role', permission: 'role', area: 'domain', menu: 'group_domain' },
  { name: 'audit', path: '/account/audit', title: 'audit', permission: 'audit', area: 'domain', menu: 'group_domain' },
  { name: 'analysis', path: '/dashboard/analysis', title: 'analysis', permission: 'dashboard', area: 'domain', menu: 'group_dashboard' },
  { name: 'monitor', path: '/dashboard/monitor', title: 'monitor', permission: 'dashboard', area: 'domain', menu: 'group_dashboard' },
  { name: 'workplace', path: '/dashboard/workplace', title: 'workplace', permission: 'dashboard', area: 'domain', menu: 'group_dashboard' },
];

export const CONSOLE_ROUTES: readonly ConsoleRoute[] = [...PUBLIC_ROUTES, ...SIGNED_IN_ROUTES];

/** The query pair SPEC §2 carries from one route to the next, defaulting to the string 'false'. */
export const CARRIED_QUERY = ['displayServiceAccount', 'displayClient'] as const;
