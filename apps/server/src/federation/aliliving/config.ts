/**
 * Where the Ali Living cloud API is (issue 14): ALILIVING_API_URL, default the Aliyun IoT API
 * gateway https://api.link.aliyun.com. Its requests go through the guarded outbound client
 * (A-37), which refuses private, loopback and link-local targets unless
 * ALILIVING_ALLOW_PRIVATE_NETWORK=true (an on-premises stand-in, the tests' local gateway).
 */
import { ConfigError } from '../../platform/config.js';

export interface AliLivingConfig {
  baseUrl: string;
  allowPrivate: boolean;
  /** per request; a link happens after the sign-in answered, but a dead gateway must not pile up requests */
  timeoutMs: number;
}

export const ALILIVING_DEFAULT_URL = 'https://api.link.aliyun.com';

export function loadAliLivingConfig(env: Record<string, string | undefined>): AliLivingConfig {
  const raw = env.ALILIVING_API_URL || ALILIVING_DEFAULT_URL;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError('ALILIVING_API_URL', 'must be an http(s) URL');
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new ConfigError('ALILIVING_API_URL', 'must be an http(s) URL');
  return { baseUrl: url.toString(), allowPrivate: env.ALILIVING_ALLOW_PRIVATE_NETWORK === 'true', timeoutMs: 3000 };
}
