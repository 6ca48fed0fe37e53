/** How a simulated locker's temperature behaves. */
export type TemperatureMode = 'steady' | 'drifting' | 'excursion';

/**
 * Steady: about 20 °C with a little noise. Drifting: rising 0.1 °C a minute from where it was (a failing
 * cooler on a sunny day), up to 35 °C. Excursion: about 28 °C at once (a door left open in a heatwave).
 */
export class TemperatureModel {
  private mode: TemperatureMode = 'steady';
  private since = 0;
  private from = 20;
  private last = 20;

  constructor(
    private readonly base = 20,
    private readonly random: () => number = Math.random,
  ) {}

  set(mode: TemperatureMode, now: number): void {
    this.mode = mode;
    this.since = now;
    this.from = this.last;
  }

  get current(): TemperatureMode {
    return this.mode;
  }

  read(now: number): number {
    const noise = (this.random() - 0.5) * 0.6;
    let value: number;
    if (this.mode === 'steady') value = this.base + noise;
    else if (this.mode === 'excursion') value = 28 + noise;
    else value = Math.min(35, this.from + ((now - this.since) / 60_000) * 0.1) + noise / 3;
    this.last = Math.round(value * 10) / 10;
    return this.last;
  }
}
