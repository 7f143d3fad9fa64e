import type { Phrases } from '../types.js';
import { errors } from './errors.js';
import { validation } from './validation.js';
import { http } from './http.js';
import { login } from './login.js';
import { menu } from './menu.js';
import { pages } from './pages.js';
import { settings } from './settings.js';
import { shell } from './shell.js';
import { notify } from './notify.js';
import { account } from './account.js';
import { flows } from './flows.js';
import { security } from './security.js';
import { table } from './table.js';
import { domains } from './domains.js';
import { people } from './people.js';
import { roles } from './roles.js';
import { audit } from './audit.js';
import { dashboard } from './dashboard.js';
import { clients } from './clients.js';
import { consent } from './consent.js';
import { device } from './device.js';
import { cert } from './cert.js';

export const zhCN: Phrases = {
  errors,
  validation,
  menu,
  shell,
  settings,
  login,
  pages,
  http,
  notify,
  account,
  flows,
  security,
  table,
  domains,
  people,
  roles,
  audit,
  dashboard,
  clients,
  consent,
  device,
  cert,
};
