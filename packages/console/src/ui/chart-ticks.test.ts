import { describe, expect, it } from 'bun:test';
import { decimalSteps, minuteSteps, yTicks } from './chart-ticks.ts';

describe('yTicks', () => {
  it('ends at or above the highest value, on round steps', () => {
    expect(yTicks(23)).toEqual([0, 5, 10, 15, 20, 25]);
    expect(yTicks(4)).toEqual([0, 1, 2, 3, 4]);
    expect(yTicks(0)).toEqual([0, 1]);
    expect(decimalSteps.slice(0, 7)).toEqual([1, 2, 5, 10, 20, 50, 100]);
  });

  it('marks pickup times in whole hours, the top above 22 hours', () => {
    const ticks = yTicks(22 * 60, minuteSteps);
    expect(ticks).toEqual([0, 360, 720, 1080, 1440]);
    expect(ticks.at(-1)).toBeGreaterThanOrEqual(22 * 60);
    expect(yTicks(50, minuteSteps)).toEqual([0, 12, 24, 36, 48, 60]);
  });
});
