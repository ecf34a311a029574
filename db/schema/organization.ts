// Tables of the organization around its items: groups, collaborations and the password policy.
export * from './collaborations.js';
export * from './groups.js';
export * from './security-policy.js';
