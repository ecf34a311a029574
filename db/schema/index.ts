// Every table of the product; drizzle-kit reads this module to generate the committed migrations.

export * from './address-points.js';
export * from './attachments.js';
export * from './items.js';
export * from './organization.js';
export * from './portal.js';
export * from './publishing.js';
export * from './self-checks.js';
export * from './service-jobs.js';
export * from './tile-caches.js';
export * from './users.js';
