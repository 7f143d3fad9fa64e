/**
 * The outbox list's paging and filters live in the address (STYLE §14): a reload, a shared
 * link or the back button shows the same page. Other query parameters (the shell's
 * displayServiceAccount/displayClient pair) are kept as they are.
 */
import type { OutboxFilter } from '../api/get-outbox';

export const OUTBOX_PAGE_SIZE = 20;

export function outboxFilterFrom(params: URLSearchParams): OutboxFilter {
  const page = Math.max(1, Math.floor(Number(params.get('page')) || 1));
  const channel = params.get('channel');
  const recipient = params.get('recipient')?.trim();
  return {
    limit: OUTBOX_PAGE_SIZE,
    offset: (page - 1) * OUTBOX_PAGE_SIZE,
    ...(channel === 'mail' || channel === 'sms' ? { channel } : {}),
    ...(recipient ? { recipient } : {}),
  };
}

/** The parameters after a change; a new channel or recipient starts again at page 1. */
export function withOutboxFilter(params: URLSearchParams, change: { page?: number; channel?: string | undefined; recipient?: string | undefined }): URLSearchParams {
  const next = new URLSearchParams(params);
  const set = (name: string, value: string | undefined) => (value ? next.set(name, value) : next.delete(name));
  if ('channel' in change || 'recipient' in change) next.delete('page');
  if ('channel' in change) set('channel', change.channel);
  if ('recipient' in change) set('recipient', change.recipient?.trim());
  if (change.page !== undefined) set('page', change.page > 1 ? String(change.page) : undefined);
  return next;
}
