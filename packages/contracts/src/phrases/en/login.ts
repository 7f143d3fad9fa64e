/** The sign-in screen (SPEC §2 "Login sub-forms"), English reference. */
export const login = {
  subtitle: 'Identity and account management for the IoT and robotics cloud',
  tab_password: 'Account password',
  username: 'User name',
  password: 'Password',
  captcha: 'Verification code',
  captcha_image: 'Verification image; click it for a new one',
  /** shown when a form first asks for the captcha (the server answered 4005 before any was shown) */
  captcha_needed: 'For your security, enter the characters shown in the image, then try again.',
  submit: 'Sign in',
  register: 'Register an account',
  forgot: 'Forgot your password?',
  sso_unavailable: 'Signing in to another application is not available yet; after signing in you stay in the console.',
  signed_in: 'Signed in',
  /** SPEC §8 'Login failed': a sign-in that failed without a catalogue answer (no response, server error) */
  failed: 'Login failed',
  captcha_expired: 'The image has expired; here is a new one.',
  otp_prompt: 'Enter the one-time password from your authenticator app for {{username}}. A recovery code works too.',
  otp_other_account: 'Use another account',
  /** issue 14: the realm's upstream OpenID provider, named by the realm's settings */
  upstream_button: 'Sign in with {{name}}',
  upstream_or: 'or',
  upstream_signing_in: 'Signing you in…',
};
