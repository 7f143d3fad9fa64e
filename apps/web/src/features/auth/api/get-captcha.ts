/** GET /api/users/auth/captcha: a single-use image captcha (a PNG data URL) and its serialNo. */
import { api } from '../../../lib/api-client';
import { flowPaths } from '@umbo/contracts/paths';

export interface Captcha {
  serialNo: string;
  /** `data:image/png;base64,…`, a raster image with nothing to read but pixels (issue 8) */
  image: string;
  expiresAt: number;
}

export function getCaptcha(realmId: string | undefined): Promise<Captcha> {
  const query = realmId ? `?realm_id=${encodeURIComponent(realmId)}` : '';
  return api.get<Captcha>(`${flowPaths.captcha}${query}`, { authCall: true });
}
