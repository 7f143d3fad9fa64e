/** GET /api/users/auth/captcha: a single-use image captcha (an SVG data URL) and its serialNo. */
import { api } from '../../../lib/api-client';
import { flowPaths } from '@umbo/contracts/paths';

export interface Captcha {
  serialNo: string;
  /** `data:image/svg+xml;base64,…`: shown through <img>, where an SVG cannot run script */
  image: string;
  expiresAt: number;
}

export function getCaptcha(realmId: string | undefined): Promise<Captcha> {
  const query = realmId ? `?realm_id=${encodeURIComponent(realmId)}` : '';
  return api.get<Captcha>(`${flowPaths.captcha}${query}`, { authCall: true });
}
