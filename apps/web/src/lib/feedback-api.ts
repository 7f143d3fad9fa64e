/**
 * What the feedback host offers (lib/feedback-host.tsx) and lib/feedback.ts forwards to. Its
 * own file, so that neither of the two imports the other's module for the type.
 */
import type { TFunction } from 'i18next';

/**
 * A text, or how to say it: a function is asked again, with the new language's `t`, when the language changes, so that a
 * notice raised in one language does not stay in it after a switch (issue 10).
 */
export type LiveText = string | ((t: TFunction) => string);

export interface FeedbackApi {
  /** Notices with the same `key` replace each other instead of stacking. */
  notifyError: (title: LiveText, description?: LiveText, key?: string) => void;
  showError: (text: LiveText) => void;
  showInfo: (text: LiveText) => void;
  confirm: (options: { title: string; content?: string; onOk: () => unknown }) => void;
}
