/** The /device page: a device's user code approved or denied (RFC 8628, issue 12). */
import type { Phrases } from '../types.js';

export const device: Phrases['device'] = {
  intro: 'Geben Sie den auf Ihrem Gerät angezeigten Code ein, damit es Ihr Konto verwenden darf.',
  code_label: 'Auf dem Gerät angezeigter Code',
  code_rule: 'Der Code hat 8 Buchstaben, etwa BCDF-GHJK',
  continue: 'Weiter',
  review_title: 'Dieses Gerät zulassen?',
  review_lead: '{{name}} möchte Ihr Konto verwenden.',
  code_check: 'Prüfen Sie, ob dieser Code dem auf dem Gerätebildschirm entspricht:',
  client_name: 'Anwendung',
  client_id: 'Client-ID',
  realm: 'Domäne',
  scopes: 'Angefragter Zugriff',
  scope_openid: 'Ihre Identität bestätigen',
  scope_profile: 'Ihr Basisprofil (Name, Bild)',
  scope_email: 'Ihre E-Mail-Adresse',
  scope_phone: 'Ihre Telefonnummer',
  scope_offline_access: 'Zugriff, während Sie es nicht verwenden',
  expires: 'Der Code läuft um {{time}} ab',
  warning:
    'Bestätigen Sie nur, wenn Sie dies gerade auf Ihrem eigenen Gerät begonnen haben. Bestätigen Sie nie einen Code, den Ihnen jemand anderes gegeben hat.',
  approve: 'Zulassen',
  deny: 'Ablehnen',
  approved_title: 'Gerät zugelassen',
  approved_desc: '{{name}} kann Ihr Konto jetzt verwenden. Sie können zum Gerät zurückkehren.',
  denied_title: 'Anfrage abgelehnt',
  denied_desc: '{{name}} hat keinen Zugriff erhalten.',
  another: 'Anderen Code eingeben',
};
