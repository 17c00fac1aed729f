/** Time source. Inject it (token CLOCK); never call Date.now() in domain or scheduling code. */
export interface Clock {
  now(): Date;
}

export const CLOCK = Symbol('CLOCK');

export class SystemClock implements Clock {
  now(): Date {
    return new Date();
  }
}

/** A clock tests move by hand: a two-hour retry is tested by advancing it, never by sleeping. */
export class FakeClock implements Clock {
  private current: number;

  constructor(start: Date | string | number = '2026-01-01T00:00:00.000Z') {
    this.current = new Date(start).getTime();
  }

  now(): Date {
    return new Date(this.current);
  }

  advance(ms: number): Date {
    this.current += ms;
    return this.now();
  }

  set(to: Date | string | number): void {
    this.current = new Date(to).getTime();
  }
}
