import { describe, expect, it } from 'vitest';
import { dollars, MONEY_STEPS } from '../../web/src/format.ts';

// The cost chart's y axis: uPlot picks a step from MONEY_STEPS and asks for each tick's label.
describe("the cost chart's axis", () => {
  it.each(MONEY_STEPS)('labels every tick of a %s step differently', (step) => {
    const labels = Array.from({ length: 8 }, (_v, i) => dollars(Number((i * step).toPrecision(12)), step));
    expect(new Set(labels).size).toBe(labels.length);
  });

  it('writes no more decimals than the step needs, and cents at least', () => {
    expect([0.005, 0.01, 0.015].map((t) => dollars(t, 0.005))).toEqual(['$0.005', '$0.010', '$0.015']);
    expect([0.5, 1].map((t) => dollars(t, 0.5))).toEqual(['$0.50', '$1.00']);
    expect([0, 10, 20].map((t) => dollars(t, 10))).toEqual(['$0', '$10', '$20']);
  });
});
