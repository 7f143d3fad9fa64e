/**
 * The client form's values and their way to and from the API (contracts/clients.ts). Pure, so
 * the mapping is tested without a browser. The two SPEC §5 "must be selected" choices
 * (authCodeMulitUse, refreshTokenRecreate) start unset on a new client: the administrator
 * decides, nothing is decided for them.
 */
import {
  CLIENT_DEFAULTS,
  zClientJwks,
  type ClientCreateBody,
  type ClientJwks,
  type ClientUpdateBody,
  type ClientView,
  type GrantType,
  type TokenEndpointAuthMethod,
} from '@umbo/contracts/clients';
import { randomClientId } from './random-id';

type Scope = ClientCreateBody['scopes'] extends (infer S)[] | undefined ? S : never;
type Alg = ClientView['signingAlg'];

export interface ClientFormValues {
  name: string;
  clientId: string;
  desc: string;
  enabled: boolean;
  redirectUris: string[];
  postLogoutRedirectUris: string[];
  loginTips: string;
  loginUrl: string;
  registUrl: string;
  tokenExpirSec: number | null;
  refreshtokenExpirSec: number | null;
  /** undefined until chosen (SPEC §5) */
  refreshTokenRecreate: boolean | undefined;
  /** undefined until chosen (SPEC §5) */
  authCodeMulitUse: boolean | undefined;
  grantTypes: GrantType[];
  scopes: Scope[];
  tokenEndpointAuthMethod: TokenEndpointAuthMethod;
  /** the JWK Set as the administrator types it */
  jwks: string;
  consentRequired: boolean;
  signingAlg: Alg;
  sourceRanges: string[];
  /** sub clients only */
  allowAuthCode: boolean;
  allowToken: boolean;
}

/** One hour and 30 days: common lifetimes, offered (not imposed) on a new client. */
export const DEFAULT_TOKEN_SEC = 3600;
export const DEFAULT_REFRESH_SEC = 30 * 24 * 3600;

export function newClientValues(): ClientFormValues {
  return {
    name: '',
    clientId: randomClientId(),
    desc: '',
    enabled: true,
    redirectUris: [''],
    postLogoutRedirectUris: [],
    loginTips: CLIENT_DEFAULTS.loginTips,
    loginUrl: CLIENT_DEFAULTS.loginUrl,
    registUrl: CLIENT_DEFAULTS.registUrl,
    tokenExpirSec: DEFAULT_TOKEN_SEC,
    refreshtokenExpirSec: DEFAULT_REFRESH_SEC,
    refreshTokenRecreate: undefined,
    authCodeMulitUse: undefined,
    grantTypes: [...CLIENT_DEFAULTS.grantTypes],
    scopes: [...CLIENT_DEFAULTS.scopes],
    tokenEndpointAuthMethod: CLIENT_DEFAULTS.tokenEndpointAuthMethod,
    jwks: '',
    consentRequired: CLIENT_DEFAULTS.consentRequired,
    signingAlg: CLIENT_DEFAULTS.signingAlg,
    sourceRanges: [],
    allowAuthCode: false,
    allowToken: false,
  };
}

export function valuesFromClient(c: ClientView): ClientFormValues {
  return {
    name: c.name,
    clientId: c.clientId,
    desc: c.desc,
    enabled: !c.disabled,
    redirectUris: c.redirectUris.length ? [...c.redirectUris] : [''],
    postLogoutRedirectUris: [...c.postLogoutRedirectUris],
    loginTips: c.loginTips,
    loginUrl: c.loginUrl,
    registUrl: c.registUrl,
    tokenExpirSec: c.tokenExpirSec,
    refreshtokenExpirSec: c.refreshtokenExpirSec,
    refreshTokenRecreate: c.refreshTokenRecreate,
    authCodeMulitUse: c.authCodeMulitUse,
    grantTypes: c.grantTypes as GrantType[],
    scopes: c.scopes as Scope[],
    tokenEndpointAuthMethod: c.tokenEndpointAuthMethod,
    jwks: c.jwks ? JSON.stringify(c.jwks, null, 2) : '',
    consentRequired: c.consentRequired,
    signingAlg: c.signingAlg,
    sourceRanges: [...c.sourceRanges],
    allowAuthCode: c.allowAuthCode,
    allowToken: c.allowToken,
  };
}

/** The JWK Set typed in the form, or undefined when it is not one (the form says so). */
export function parseJwks(text: string): ClientJwks | undefined {
  try {
    const parsed = zClientJwks.safeParse(JSON.parse(text));
    return parsed.success ? parsed.data : undefined;
  } catch {
    return undefined;
  }
}

const filled = (list: string[]) => list.map((v) => v.trim()).filter(Boolean);

/** Every field but the id, as both bodies carry them. Source ranges apply to client_credentials only. */
function common(v: ClientFormValues) {
  const usesRanges = v.grantTypes.includes('client_credentials');
  return {
    name: v.name.trim(),
    desc: v.desc,
    authCodeMulitUse: v.authCodeMulitUse === true,
    tokenExpirSec: v.tokenExpirSec ?? 0,
    refreshtokenExpirSec: v.refreshtokenExpirSec ?? 0,
    refreshTokenRecreate: v.refreshTokenRecreate === true,
    redirectUris: filled(v.redirectUris),
    postLogoutRedirectUris: filled(v.postLogoutRedirectUris),
    loginTips: v.loginTips,
    loginUrl: v.loginUrl.trim(),
    registUrl: v.registUrl.trim(),
    grantTypes: v.grantTypes,
    scopes: v.scopes,
    tokenEndpointAuthMethod: v.tokenEndpointAuthMethod,
    jwks: v.tokenEndpointAuthMethod === 'private_key_jwt' ? (parseJwks(v.jwks) ?? null) : null,
    consentRequired: v.consentRequired,
    signingAlg: v.signingAlg,
    sourceRanges: usesRanges ? filled(v.sourceRanges) : [],
    disabled: !v.enabled,
  };
}

export function toCreateBody(v: ClientFormValues): ClientCreateBody {
  return { ...common(v), clientId: v.clientId.trim() };
}

/** The whole record again (PATCH takes any subset); the sub-client flags only for a sub client (1009 otherwise). */
export function toUpdateBody(v: ClientFormValues, isSub: boolean): ClientUpdateBody {
  return isSub ? { ...common(v), allowAuthCode: v.allowAuthCode, allowToken: v.allowToken } : common(v);
}
