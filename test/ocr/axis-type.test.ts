import { describe, expect, it } from 'vitest';
import { typeRefusesAxis } from '../../src/ocr/skew.js';
import { otsu } from '../../src/ocr/light.js';
import { turnedCard } from './turned-card.js';

describe('a bright region\'s axis checked against the type (skew.ts typeRefusesAxis)', () => {
  it('refuses a turn of 41 degrees for type that runs along the frame\'s rows', async () => {
    const g = await turnedCard(0);
    expect(typeRefusesAxis(g, otsu(g.data), -41)).toBe(true);
    expect(typeRefusesAxis(g, otsu(g.data), 12)).toBe(true);
  });

  it('takes the axis when the type runs along it', async () => {
    for (const deg of [-20, 8, 35]) {
      const g = await turnedCard(deg);
      expect(typeRefusesAxis(g, otsu(g.data), deg)).toBe(false);
    }
  });
});
