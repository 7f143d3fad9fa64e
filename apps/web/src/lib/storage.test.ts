import { describe, expect, it } from 'vitest';
import { readStored, removeStored, writeStored } from './storage';

function memoryStore(): Storage {
  const map = new Map<string, string>();
  return {
    get length() {
      return map.size;
    },
    clear: () => map.clear(),
    getItem: (k) => map.get(k) ?? null,
    key: (i) => [...map.keys()][i] ?? null,
    removeItem: (k) => void map.delete(k),
    setItem: (k, v) => void map.set(k, String(v)),
  };
}

describe('stored values (SPEC §3 keys)', () => {
  it('round-trips a value with its expiry', () => {
    const store = memoryStore();
    writeStored('nav_theme', 'light', null, store);
    expect(readStored('nav_theme', Date.now(), store)).toBe('light');
    expect(JSON.parse(store.getItem('nav_theme')!)).toEqual({ value: 'light', expire: null });
  });

  it('forgets a value once its expiry has passed', () => {
    const store = memoryStore();
    writeStored('access_token', 'tok', 1_000, store);
    expect(readStored('access_token', 999, store)).toBe('tok');
    expect(readStored('access_token', 1_000, store)).toBeUndefined();
    expect(store.getItem('access_token')).toBeNull();
  });

  it('reads a bare string another tool wrote', () => {
    const store = memoryStore();
    store.setItem('token', 'raw-token');
    expect(readStored('token', Date.now(), store)).toBe('raw-token');
  });

  it('removes', () => {
    const store = memoryStore();
    writeStored('weak', true, null, store);
    removeStored('weak', store);
    expect(readStored('weak', Date.now(), store)).toBeUndefined();
  });
});
