import { describe, expect, it } from 'vitest';
import { outboxFilterFrom, withOutboxFilter } from './outbox-filter';

describe('outbox filter in the address', () => {
  it('reads page, channel and recipient, ignoring what it does not know', () => {
    expect(outboxFilterFrom(new URLSearchParams('page=3&channel=sms&recipient=%20a@b.c%20'))).toEqual({ limit: 20, offset: 40, channel: 'sms', recipient: 'a@b.c' });
    expect(outboxFilterFrom(new URLSearchParams('page=-2&channel=fax&recipient='))).toEqual({ limit: 20, offset: 0 });
    expect(outboxFilterFrom(new URLSearchParams('page=abc'))).toEqual({ limit: 20, offset: 0 });
  });

  it('keeps the shell parameters and starts again at page 1 when a filter changes', () => {
    const base = new URLSearchParams('displayServiceAccount=false&displayClient=false&page=4');
    expect(withOutboxFilter(base, { channel: 'mail' }).toString()).toBe('displayServiceAccount=false&displayClient=false&channel=mail');
    expect(withOutboxFilter(base, { page: 2 }).toString()).toBe('displayServiceAccount=false&displayClient=false&page=2');
    expect(withOutboxFilter(new URLSearchParams('channel=sms&page=2'), { channel: undefined, page: undefined }).toString()).toBe('');
    expect(withOutboxFilter(new URLSearchParams('page=2'), { page: 1 }).toString()).toBe('');
  });
});
