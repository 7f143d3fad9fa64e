import type { Phrases } from '../types.js';

export const validation: Phrases['validation'] = {
  required: 'Ce champ est obligatoire',
  mobile: 'Veuillez saisir un numéro de mobile valide',
  email: 'Veuillez saisir une adresse e-mail valide',
  username: 'Nom d’utilisateur : 3 à 24 lettres, chiffres ou traits de soulignement',
  username_same: 'Le nouveau nom d’utilisateur doit être différent de l’actuel',
  password_min: 'Le mot de passe doit comporter au moins 6 caractères',
  password_max: 'Le mot de passe est trop long',
  password_mismatch: 'Les mots de passe saisis ne correspondent pas',
  mail_code: 'Le code comporte 24 lettres ou chiffres',
  description: 'Description : 4 à 50 caractères',
  domain: 'Veuillez saisir un nom de domaine valide',
  url: 'Veuillez saisir une URL http ou https valide',
  sub_name: 'Commence par une lettre, suivie de lettres, chiffres, traits de soulignement ou points ; 3 à 50 caractères',
  key_name: 'Nom de la clé : 4 à 20 lettres, chiffres, traits de soulignement ou tirets',
  otp: 'Le mot de passe à usage unique comporte 6 chiffres',
  color: 'Saisissez une couleur, par exemple #1890ff',
  too_short: 'Au moins {{min}} caractères',
  too_long: 'Au plus {{max}} caractères',
  invalid: 'Veuillez saisir une valeur valide',
};
