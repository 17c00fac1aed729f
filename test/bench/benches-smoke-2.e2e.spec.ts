// spec-process: own (each part drives its benches in child processes; the parts run side by side)
import { describeBenchSmoke } from './support/bench-smoke.js';

describeBenchSmoke(2);
