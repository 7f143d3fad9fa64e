/** Shows a failed mutation's message, unless the API client already announced it. */
import { ApiError } from '../../../lib/api-error';
import { showError } from '../../../lib/feedback';

export function reportError(err: unknown): void {
  if (err instanceof ApiError && err.notified) return;
  if (err instanceof ApiError && err.say) return showError(err.say);
  showError(err instanceof Error ? err.message : String(err));
}
