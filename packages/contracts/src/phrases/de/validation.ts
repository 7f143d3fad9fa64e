import type { Phrases } from '../index.js';
import { validation as en } from '../en/validation.js';

// TODO(translation): placeholder until translated.
export const validation: Phrases['validation'] = { ...en };
