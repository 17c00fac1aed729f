import { describeBenchSmoke } from './support/bench-smoke.js';

describeBenchSmoke(2);
