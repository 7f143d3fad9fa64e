import type { Phrases } from '../types.js';

export const validation: Phrases['validation'] = {
  required: 'Dieses Feld ist erforderlich',
  mobile: 'Bitte geben Sie eine gültige Mobilnummer ein',
  email: 'Bitte geben Sie eine gültige E-Mail-Adresse ein',
  username: 'Benutzername: 3-24 Buchstaben, Ziffern oder Unterstriche',
  username_same: 'Der neue Benutzername muss sich vom aktuellen unterscheiden',
  password_min: 'Das Passwort muss mindestens 6 Zeichen lang sein',
  password_max: 'Das Passwort ist zu lang',
  password_mismatch: 'Die eingegebenen Passwörter stimmen nicht überein',
  mail_code: 'Der Code besteht aus 24 Buchstaben oder Ziffern',
  description: 'Beschreibung: 4-50 Zeichen',
  domain: 'Bitte geben Sie einen gültigen Domainnamen ein',
  url: 'Bitte geben Sie eine gültige http- oder https-URL ein',
  sub_name: 'Beginnt mit einem Buchstaben, danach Buchstaben, Ziffern, Unterstrich oder Punkt; 3-50 Zeichen',
  key_name: 'Schlüsselname: 4-20 Buchstaben, Ziffern, Unterstriche oder Bindestriche',
  otp: 'Das Einmalpasswort besteht aus 6 Ziffern',
  color: 'Bitte geben Sie eine Farbe wie #1890ff ein',
  too_short: 'Mindestens {{min}} Zeichen',
  too_long: 'Höchstens {{max}} Zeichen',
  invalid: 'Bitte geben Sie einen gültigen Wert ein',
};
