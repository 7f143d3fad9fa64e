import { afterEach, describe, expect, it, vi } from 'vitest';
import { withTimeout } from './lazy-screen';

describe('screen loading deadline (SPEC §9: 120 s)', () => {
  afterEach(() => vi.useRealTimers());

  it('gives up when the chunk has not arrived in time', async () => {
    vi.useFakeTimers();
    const never = new Promise<never>(() => undefined);
    const result = expect(withTimeout(never, 120_000)).rejects.toThrow('timed out after 120000 ms');
    await vi.advanceTimersByTimeAsync(120_000);
    await result;
  });

  it('passes a chunk that arrives in time, and its failure', async () => {
    await expect(withTimeout(Promise.resolve('chunk'), 10)).resolves.toBe('chunk');
    await expect(withTimeout(Promise.reject(new Error('offline')), 10)).rejects.toThrow('offline');
  });
});
