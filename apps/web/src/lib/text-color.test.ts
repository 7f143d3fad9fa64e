import { describe, expect, it } from 'vitest';
import { PRIMARY_COLORS } from './settings';
import { contrastOnWhite, textShade } from './text-color';

describe('textShade', () => {
  it('darkens the light-blue primary (3.2:1) to a text colour of at least 4.5:1', () => {
    expect(contrastOnWhite('#1890ff')).toBeLessThan(4.5);
    expect(contrastOnWhite(textShade('#1890ff'))).toBeGreaterThanOrEqual(4.5);
  });

  it('gives every colour of the settings drawer a readable shade, and keeps a dark one as it is', () => {
    for (const { color } of PRIMARY_COLORS) expect(contrastOnWhite(textShade(color)), color).toBeGreaterThanOrEqual(4.5);
    expect(textShade('#722ed1')).toBe('#722ed1');
  });
});
