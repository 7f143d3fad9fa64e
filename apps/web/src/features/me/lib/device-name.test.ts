import { describe, expect, it } from 'vitest';
import { deviceName } from './device-name';

const WIN = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko)';

describe('deviceName (signed-in devices list)', () => {
  it('names the browser by its own token, not the Chrome or Safari it also mentions', () => {
    expect(deviceName(`${WIN} Chrome/120.0.0.0 Safari/537.36 Edg/120.0.2210.91`)).toBe('Edg/120 · Windows NT 10.0');
    expect(deviceName(`${WIN} Chrome/119.0.0.0 Safari/537.36 OPR/105.0.0.0`)).toBe('OPR/105 · Windows NT 10.0');
    expect(deviceName(`${WIN} Chrome/120.0.0.0 Safari/537.36`)).toBe('Chrome/120 · Windows NT 10.0');
    expect(deviceName('Mozilla/5.0 (X11; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0')).toBe('Firefox/121 · Linux');
    expect(deviceName('Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15')).toBe(
      'Safari/605 · Mac OS X 10_15_7',
    );
  });

  it('falls back to the start of an unknown user agent', () => {
    expect(deviceName('curl/8.5.0')).toBe('curl/8.5.0');
  });
});
