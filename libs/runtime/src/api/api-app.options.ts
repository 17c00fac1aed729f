import type { DynamicModule, Type } from '@nestjs/common';
import type { Clock } from '#kernel';

export interface ApiAppOptions {
  /** Extra modules (tests add test-only controllers here). */
  imports?: Array<Type | DynamicModule>;
  /** Replaces SystemClock (tests). */
  clock?: Clock;
  /** Where log lines go instead of stdout (tests read them). */
  logStream?: { write(line: string): void };
}
