// Test helpers of this lib, for spec files only (dependency-cruiser keeps them out of production code).
export * from './testing/memory-projection.js';
export * from './testing/ownership-leases.contract.js';
export * from './testing/embedded-projections.js';
