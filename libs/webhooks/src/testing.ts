// Test helpers of this lib, for spec files only (dependency-cruiser keeps them out of production code).
export * from './testing/delivery-leases.contract.js';
export * from './testing/delivery-doc.fixture.js';
