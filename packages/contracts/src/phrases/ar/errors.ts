import type { Phrases } from '../index.js';
import { errors as en } from '../en/errors.js';

// TODO(translation): placeholder until translated.
export const errors: Phrases['errors'] = { ...en };
