/** Every API path the console calls, in one place (STYLE §13). */
export const paths = {
  users: '/api/users',
  cert: '/api/cert',
  perm: '/api/perm',
  login: '/api/users/auth/login',
  logout: '/api/users/auth/logout',
  userDo: '/api/users/user.do',
  newauthDo: '/api/users/newauth.do',
  currentUser: '/api/perm/user/info',
  projectConfig: '/project.config.json',
} as const;

/** The public sign-in, registration and recovery calls (auth-flows.ts), and the outbox. */
export const flowPaths = {
  options: '/api/users/auth/options',
  captcha: '/api/users/auth/captcha',
  smsCode: '/api/users/auth/sms-code',
  emailCode: '/api/users/auth/email-code',
  loginSms: '/api/users/auth/login/sms',
  loginEmail: '/api/users/auth/login/email',
  registerEmail: '/api/users/auth/register/email',
  registerSms: '/api/users/auth/register/sms',
  activate: '/api/users/auth/activate',
  retrieveEmail: '/api/users/auth/retrieve/email',
  retrieveSms: '/api/users/auth/retrieve/sms',
  reset: '/api/users/auth/reset',
  ftoken: '/api/users/auth/ftoken',
  loginFtoken: '/api/users/auth/login/ftoken',
  outbox: '/api/users/outbox',
} as const;

/** The signed-in user's own account (account.ts). */
export const accountPaths = {
  account: '/api/users/account',
  avatar: '/api/users/account/avatar',
  password: '/api/users/account/password',
  sessions: '/api/users/account/sessions',
  session: (id: string) => `/api/users/account/sessions/${encodeURIComponent(id)}`,
  settings: '/api/users/account/settings',
  otp: '/api/users/account/otp',
  otpSetup: '/api/users/account/otp/setup',
  otpEnable: '/api/users/account/otp/enable',
  otpDisable: '/api/users/account/otp/disable',
  bindCode: '/api/users/account/binding/code',
  bind: '/api/users/account/binding',
} as const;

/** The console's side of an OAuth sign-in (oauth-interaction.ts): challenge info, sign-in, consent, callback_uri links. */
export const oauthInteractionPaths = {
  info: '/api/users/oauth/interaction',
  login: '/api/users/oauth/interaction/login',
  consent: '/api/users/oauth/interaction/consent',
  callback: '/api/users/oauth/interaction/callback',
} as const;

/** A sub client's authorization code for the parent's user token (oauth-tokens.ts; allowAuthCode). */
export const oauthTokenPaths = {
  subClientCode: '/api/users/oauth/sub-client-code',
} as const;
