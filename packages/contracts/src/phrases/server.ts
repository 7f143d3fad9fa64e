/**
 * The phrases the server itself renders (issue 12 memory budget): error messages and the
 * reasons they name (validation, roles), mail (notify, domains) and the OAuth consent pages.
 * The console's other areas stay out of the server's bundle: in ten locales they were ~70 % of
 * its phrases, ~1 MB of its code and several MB of its heap.
 * apps/server/src/platform/server-phrases.test.ts checks that every phrase key the server or a
 * contract schema names lies in one of these areas.
 */
import type { Locale } from '../locales.js';
import type { Phrases } from './types.js';
import { errors as zhCNErrors } from './zh-CN/errors.js';
import { validation as zhCNValidation } from './zh-CN/validation.js';
import { roles as zhCNRoles } from './zh-CN/roles.js';
import { notify as zhCNNotify } from './zh-CN/notify.js';
import { consent as zhCNConsent } from './zh-CN/consent.js';
import { domains as zhCNDomains } from './zh-CN/domains.js';
import { errors as zhTWErrors } from './zh-TW/errors.js';
import { validation as zhTWValidation } from './zh-TW/validation.js';
import { roles as zhTWRoles } from './zh-TW/roles.js';
import { notify as zhTWNotify } from './zh-TW/notify.js';
import { consent as zhTWConsent } from './zh-TW/consent.js';
import { domains as zhTWDomains } from './zh-TW/domains.js';
import { errors as enErrors } from './en/errors.js';
import { validation as enValidation } from './en/validation.js';
import { roles as enRoles } from './en/roles.js';
import { notify as enNotify } from './en/notify.js';
import { consent as enConsent } from './en/consent.js';
import { domains as enDomains } from './en/domains.js';
import { errors as jaErrors } from './ja/errors.js';
import { validation as jaValidation } from './ja/validation.js';
import { roles as jaRoles } from './ja/roles.js';
import { notify as jaNotify } from './ja/notify.js';
import { consent as jaConsent } from './ja/consent.js';
import { domains as jaDomains } from './ja/domains.js';
import { errors as frErrors } from './fr/errors.js';
import { validation as frValidation } from './fr/validation.js';
import { roles as frRoles } from './fr/roles.js';
import { notify as frNotify } from './fr/notify.js';
import { consent as frConsent } from './fr/consent.js';
import { domains as frDomains } from './fr/domains.js';
import { errors as deErrors } from './de/errors.js';
import { validation as deValidation } from './de/validation.js';
import { roles as deRoles } from './de/roles.js';
import { notify as deNotify } from './de/notify.js';
import { consent as deConsent } from './de/consent.js';
import { domains as deDomains } from './de/domains.js';
import { errors as esErrors } from './es/errors.js';
import { validation as esValidation } from './es/validation.js';
import { roles as esRoles } from './es/roles.js';
import { notify as esNotify } from './es/notify.js';
import { consent as esConsent } from './es/consent.js';
import { domains as esDomains } from './es/domains.js';
import { errors as itErrors } from './it/errors.js';
import { validation as itValidation } from './it/validation.js';
import { roles as itRoles } from './it/roles.js';
import { notify as itNotify } from './it/notify.js';
import { consent as itConsent } from './it/consent.js';
import { domains as itDomains } from './it/domains.js';
import { errors as ptErrors } from './pt/errors.js';
import { validation as ptValidation } from './pt/validation.js';
import { roles as ptRoles } from './pt/roles.js';
import { notify as ptNotify } from './pt/notify.js';
import { consent as ptConsent } from './pt/consent.js';
import { domains as ptDomains } from './pt/domains.js';
import { errors as arErrors } from './ar/errors.js';
import { validation as arValidation } from './ar/validation.js';
import { roles as arRoles } from './ar/roles.js';
import { notify as arNotify } from './ar/notify.js';
import { consent as arConsent } from './ar/consent.js';
import { domains as arDomains } from './ar/domains.js';

export const SERVER_PHRASE_AREAS = ['errors', 'validation', 'roles', 'notify', 'consent', 'domains'] as const;

export type ServerPhrases = Pick<Phrases, (typeof SERVER_PHRASE_AREAS)[number]>;

export const serverPhrases: Record<Locale, ServerPhrases> = {
  'zh-CN': { errors: zhCNErrors, validation: zhCNValidation, roles: zhCNRoles, notify: zhCNNotify, consent: zhCNConsent, domains: zhCNDomains },
  'zh-TW': { errors: zhTWErrors, validation: zhTWValidation, roles: zhTWRoles, notify: zhTWNotify, consent: zhTWConsent, domains: zhTWDomains },
  en: { errors: enErrors, validation: enValidation, roles: enRoles, notify: enNotify, consent: enConsent, domains: enDomains },
  ja: { errors: jaErrors, validation: jaValidation, roles: jaRoles, notify: jaNotify, consent: jaConsent, domains: jaDomains },
  fr: { errors: frErrors, validation: frValidation, roles: frRoles, notify: frNotify, consent: frConsent, domains: frDomains },
  de: { errors: deErrors, validation: deValidation, roles: deRoles, notify: deNotify, consent: deConsent, domains: deDomains },
  es: { errors: esErrors, validation: esValidation, roles: esRoles, notify: esNotify, consent: esConsent, domains: esDomains },
  it: { errors: itErrors, validation: itValidation, roles: itRoles, notify: itNotify, consent: itConsent, domains: itDomains },
  pt: { errors: ptErrors, validation: ptValidation, roles: ptRoles, notify: ptNotify, consent: ptConsent, domains: ptDomains },
  ar: { errors: arErrors, validation: arValidation, roles: arRoles, notify: arNotify, consent: arConsent, domains: arDomains },
};
