/** The /device page: a device's user code approved or denied (RFC 8628, issue 12). */
import type { Phrases } from '../types.js';

export const device: Phrases['device'] = {
  intro: "Saisissez le code affiché sur votre appareil pour l'autoriser à utiliser votre compte.",
  code_label: "Code affiché sur l'appareil",
  code_rule: 'Le code compte 8 lettres, par exemple BCDF-GHJK',
  continue: 'Continuer',
  review_title: 'Autoriser cet appareil ?',
  review_lead: '{{name}} demande à utiliser votre compte.',
  code_check: "Vérifiez que ce code est celui affiché sur l'écran de l'appareil :",
  client_name: "Nom de l'application",
  client_id: 'ID client',
  realm: 'Domaine',
  scopes: 'Accès demandés',
  scope_openid: 'Confirmer votre identité',
  scope_profile: 'Votre profil de base (nom, photo)',
  scope_email: 'Votre adresse e-mail',
  scope_phone: 'Votre numéro de téléphone',
  scope_offline_access: 'Un accès quand vous ne l’utilisez pas',
  expires: 'Le code expire à {{time}}',
  warning:
    "N'approuvez que si vous venez de lancer cette opération sur un appareil qui vous appartient. N'approuvez jamais un code donné par quelqu'un d'autre.",
  approve: 'Approuver',
  deny: 'Refuser',
  approved_title: 'Appareil approuvé',
  approved_desc: "{{name}} peut maintenant utiliser votre compte. Vous pouvez revenir à l'appareil.",
  denied_title: 'Demande refusée',
  denied_desc: "{{name}} n'a pas reçu d'accès.",
  another: 'Saisir un autre code',
};
