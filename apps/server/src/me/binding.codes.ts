/**
 * BindCodes on the shared code service and delivery (codes/, notify/): purpose `bind`, so a
 * binding code can never be used to sign in or register (A-46 type namespaces).
 */
import type { CodeService } from '../codes/codes.service.js';
import { CODE_DEFAULTS } from '../codes/defaults.js';
import type { NotifyService, RealmDelivery } from '../notify/notify.service.js';
import { codeMail, codeSms } from '../notify/templates.js';
import type { BindCodes } from './binding.service.js';

const MINUTES = Math.round(CODE_DEFAULTS.ttlMs / 60_000);

export function createBindCodes(deps: {
  codes: CodeService;
  notify: NotifyService;
  siteTitle: string;
  deliveryOf(realmId: string): Promise<RealmDelivery>;
}): BindCodes {
  const { codes, notify } = deps;
  return {
    async send(i) {
      const delivery = await deps.deliveryOf(i.realmId);
      const issued = await codes.issue({ realmId: i.realmId, purpose: 'bind', channel: i.channel, target: i.target }, { ip: i.ip, subject: i.subject });
      if (i.channel === 'email') {
        const mail = codeMail(i.to, { locale: i.locale, site: deps.siteTitle, realm: i.realmId, code: issued.code, minutes: MINUTES });
        notify.defer('bind-email-code', () => notify.sendMail(i.realmId, delivery, mail));
      } else {
        const text = codeSms({ locale: i.locale, realm: i.realmId, code: issued.code, minutes: MINUTES });
        notify.defer('bind-sms-code', () => notify.sendSms(i.realmId, delivery, { to: i.to, text, code: issued.code, purpose: 'bind' }));
      }
      return { serialNo: issued.serialNo, expiresAt: issued.expiresAt, resendAt: issued.resendAt };
    },
    verify: (i) => codes.verify({ realmId: i.realmId, purpose: 'bind', channel: i.channel, target: i.target }, { serialNo: i.serialNo, code: i.code }),
  };
}
