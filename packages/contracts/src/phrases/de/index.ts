import type { Phrases } from '../index.js';
import { errors } from './errors.js';
import { validation } from './validation.js';

export const de: Phrases = { errors, validation };
