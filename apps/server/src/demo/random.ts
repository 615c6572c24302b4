/**
 * A small seeded pseudo-random generator (mulberry32), so the demo club is the
 * same on every machine and tests can rely on its shape.
 */
export class Rng {
  private s: number;
  constructor(seed: number) {
    this.s = seed >>> 0;
  }
  /** The generator's whole state (resuming the demo history: history.ts). */
  get state(): number {
    return this.s;
  }
  set state(s: number) {
    this.s = s >>> 0;
  }
  /** Uniform in [0, 1). */
  next(): number {
    this.s = (this.s + 0x6d2b79f5) >>> 0;
    let t = this.s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }
  /** Integer in [min, max], inclusive. */
  int(min: number, max: number): number {
    return min + Math.floor(this.next() * (max - min + 1));
  }
  /** True with probability p. */
  chance(p: number): boolean {
    return this.next() < p;
  }
  pick<T>(xs: readonly T[]): T {
    return xs[Math.floor(this.next() * xs.length)];
  }
  /** Roughly normal (sum of three uniforms), mean `mean`, spread about ± 1.7 sd. */
  around(mean: number, sd: number): number {
    return mean + (this.next() + this.next() + this.next() - 1.5) * 2 * sd;
  }
}
