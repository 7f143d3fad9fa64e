/** Security, preferences and outbox screens of the console (issue 3), français. */
import type { Phrases } from '../types.js';

export const security: Phrases['security'] = {
  email: 'E-mail',
  phone: 'Téléphone',
  kind: 'Type de compte',
  kind_person: 'Personne',
  kind_service: 'Compte de service',
  verify_code: 'Code de vérification',
  password: 'Mot de passe',
  strength: 'Robustesse du mot de passe',
  password_mismatch: 'Les deux mots de passe ne correspondent pas',
  session_expires: 'Expire le',
  otp_setup_hint: 'Saisissez votre mot de passe pour créer une nouvelle clé.',
  otp_saved: 'Je les ai enregistrés',
  otp_codes_hint: "Saisissez deux codes consécutifs de votre application d'authentification.",
  otp_status: 'État',
  force_password_blocked: "Définissez d'abord un nouveau mot de passe ; les autres pages s'ouvriront ensuite.",
  outbox_hint:
    "E-mails et SMS envoyés par le service, du plus récent au plus ancien. Sur une nouvelle installation, c'est ici qu'arrivent les codes et les liens.",
  outbox_channel: 'Canal',
  outbox_mail: 'E-mail',
  outbox_sms: 'SMS',
  outbox_recipient: 'Destinataire',
  outbox_subject: 'Objet',
  outbox_body: 'Contenu',
  outbox_time: 'Envoyé le',
  outbox_all: 'Tous les canaux',
  search: 'Rechercher',
  never: 'Jamais',
};
