import { describe, expect, it } from 'vitest';
import { readListParams, writeListParams, type ListChange, type ListSpec } from './use-list-params';

const spec: ListSpec<'channel' | 'recipient', 'createdAt' | 'recipient'> = {
  filters: ['channel', 'recipient'],
  sortable: ['createdAt', 'recipient'],
};
const read = (query: string) => readListParams(new URLSearchParams(query), spec);
const write = (query: string, change: ListChange<'channel' | 'recipient', 'createdAt' | 'recipient'>) =>
  writeListParams(new URLSearchParams(query), change, spec).toString();

describe('list paging, sorting and filters in the address', () => {
  it('reads page, size, order and filters, with defaults for what is missing', () => {
    expect(read('page=3&pageSize=50&sort=-createdAt&channel=sms&recipient=%20a@b.c%20')).toEqual({
      page: 3,
      pageSize: 50,
      offset: 100,
      sort: { field: 'createdAt', order: 'descend' },
      filters: { channel: 'sms', recipient: 'a@b.c' },
    });
    expect(read('')).toEqual({ page: 1, pageSize: 20, offset: 0, sort: undefined, filters: {} });
    expect(read('sort=recipient').sort).toEqual({ field: 'recipient', order: 'ascend' });
  });

  it('ignores what the spec does not allow or cannot be a page', () => {
    expect(read('page=-2&pageSize=7&sort=-password&other=x&recipient=')).toEqual({ page: 1, pageSize: 20, offset: 0, sort: undefined, filters: {} });
    expect(read('page=abc').page).toBe(1);
    expect(read('page=2.7').page).toBe(2);
    expect(read('pageSize=1000000').pageSize).toBe(20);
  });

  it('uses the spec defaults: page size, sizes allowed and order', () => {
    const custom: ListSpec<never, 'name'> = { pageSize: 25, pageSizes: [25, 75], sortable: ['name'], defaultSort: { field: 'name', order: 'descend' } };
    expect(readListParams(new URLSearchParams('pageSize=20'), custom)).toMatchObject({ pageSize: 25, sort: { field: 'name', order: 'descend' } });
    expect(readListParams(new URLSearchParams('pageSize=75&sort=name'), custom)).toMatchObject({ pageSize: 75, sort: { field: 'name', order: 'ascend' } });
    expect(writeListParams(new URLSearchParams('sort=name'), { sort: { field: 'name', order: 'descend' } }, custom).toString()).toBe('');
  });

  it('keeps the shell parameters and leaves defaults out of the address', () => {
    const shell = 'displayServiceAccount=false&displayClient=false';
    expect(write(`${shell}&page=4`, { page: 2 })).toBe(`${shell}&page=2`);
    expect(write('page=2', { page: 1 })).toBe('');
    expect(write('', { pageSize: 20 })).toBe('');
    expect(write('', { sort: { field: 'createdAt', order: 'descend' } })).toBe('sort=-createdAt');
    expect(write('sort=-createdAt', { sort: null })).toBe('');
  });

  it('starts again at page 1 when the size, the order or a filter changes', () => {
    expect(write('page=4', { filters: { channel: 'mail' } })).toBe('channel=mail');
    expect(write('page=4', { pageSize: 50 })).toBe('pageSize=50');
    expect(write('page=4', { sort: { field: 'recipient', order: 'ascend' } })).toBe('sort=recipient');
    // antd's Table reports page, size, order and filters together: the page stays when only it changed
    expect(write('page=4&channel=sms', { page: 5, pageSize: 20, sort: null, filters: { channel: 'sms' } })).toBe('page=5&channel=sms');
    expect(write('page=4&channel=sms', { page: 4, filters: { channel: undefined } })).toBe('');
  });

  it('trims filter values, drops empty ones and never writes an undeclared one', () => {
    expect(write('', { filters: { recipient: '  a@b.c ' } })).toBe('recipient=a%40b.c');
    expect(write('recipient=a', { filters: { recipient: '   ' } })).toBe('');
    expect(write('', { filters: { page: '3' } as never })).toBe('');
  });
});
