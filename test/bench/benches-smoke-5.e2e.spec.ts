import { describeBenchSmoke } from './support/bench-smoke.js';

describeBenchSmoke(5);
