/**
 * What the feedback host offers (lib/feedback-host.tsx) and lib/feedback.ts forwards to. Its
 * own file, so that neither of the two imports the other's module for the type.
 */
export interface FeedbackApi {
  /** Notices with the same `key` replace each other instead of stacking. */
  notifyError: (title: string, description?: string, key?: string) => void;
  showError: (text: string) => void;
  showInfo: (text: string) => void;
  confirm: (options: { title: string; content?: string; onOk: () => unknown }) => void;
}
