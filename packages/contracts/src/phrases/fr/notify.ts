import type { Phrases } from '../types.js';

export const notify: Phrases['notify'] = {
  activate_subject: 'Activez votre compte sur {{site}}',
  activate_text:
    'Bonjour {{username}},\n\nMerci pour votre inscription. Veuillez confirmer votre adresse e-mail en ouvrant ce lien dans les {{hours}} heures :\n{{link}}\n\nSi vous ne vous êtes pas inscrit, ignorez ce message.',
  activate_button: 'Activer le compte',
  reset_subject: 'Réinitialisez votre mot de passe sur {{site}}',
  reset_text:
    "Bonjour {{username}},\n\nUne réinitialisation du mot de passe de votre compte a été demandée. Ouvrez ce lien dans les {{minutes}} minutes pour choisir un nouveau mot de passe :\n{{link}}\n\nOu saisissez ce code sur la page de réinitialisation : {{code}}\n\nSi vous n'êtes pas à l'origine de cette demande, ignorez ce message ; votre mot de passe reste inchangé.",
  reset_button: 'Réinitialiser le mot de passe',
  code_subject: 'Votre code de vérification pour {{site}}',
  code_text: 'Votre code de vérification est {{code}}. Il est valable {{minutes}} minutes. Ne le communiquez à personne.',
  sms_code: '[{{realm}}] Votre code de vérification est {{code}}, valable {{minutes}} minutes. Ne le communiquez à personne.',
  footer: 'Ce message a été envoyé automatiquement par {{site}} ; merci de ne pas y répondre.',
  security_subject: 'Avis de sécurité pour votre compte {{site}}',
  security_text: 'Bonjour {{username}},\n\n{{event}}\n\n{{advice}}',
  security_advice: "Si ce n'était pas vous, réinitialisez votre mot de passe dès maintenant et contactez votre administrateur.",
  sms_security: '[{{realm}}] Avis de sécurité : {{event}} {{advice}}',
  event_password_changed: 'Le mot de passe de votre compte {{site}} a été modifié le {{time}} depuis {{ip}}.',
  event_password_reset: 'Le mot de passe de votre compte {{site}} a été réinitialisé le {{time}} depuis {{ip}}.',
  event_otp_enabled: 'Les mots de passe à usage unique ont été activés pour votre compte {{site}} le {{time}} depuis {{ip}}.',
  event_otp_disabled: 'Les mots de passe à usage unique ont été désactivés pour votre compte {{site}} le {{time}} depuis {{ip}}.',
  event_email_bound: 'Une adresse e-mail a été ajoutée à votre compte {{site}} le {{time}} depuis {{ip}}.',
  event_email_changed: "L'adresse e-mail de votre compte {{site}} a été modifiée le {{time}} depuis {{ip}}.",
  event_email_unbound: "L'adresse e-mail a été retirée de votre compte {{site}} le {{time}} depuis {{ip}}.",
  event_phone_bound: 'Un numéro de téléphone a été ajouté à votre compte {{site}} le {{time}} depuis {{ip}}.',
  event_phone_changed: 'Le numéro de téléphone de votre compte {{site}} a été modifié le {{time}} depuis {{ip}}.',
  event_phone_unbound: 'Le numéro de téléphone a été retiré de votre compte {{site}} le {{time}} depuis {{ip}}.',
  cert_expiry_subject: 'Le certificat {{cn}} expire le {{date}}',
  cert_expiry_text:
    'Bonjour {{username}},\n\nLe certificat {{cn}} (numéro de série {{sn}}) de votre compte sur {{site}} expire le {{date}}, dans {{days}} jours. Renouvelez-le ou réémettez-le avant cette date ; les appareils et services qui l’utilisent ne pourront plus se connecter ensuite.',
};
