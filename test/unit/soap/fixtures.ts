import { readFileSync } from 'node:fs';

const FIXTURES = new URL('../../fixtures/soap/', import.meta.url);

export const readFixture = (name: string): string => readFileSync(new URL(name, FIXTURES), 'utf8');

export const fixturePath = (name: string): string => new URL(name, FIXTURES).pathname;

/** The 55 operation names copied from the spec's endpoint table. */
export const specOperationNames = (): string[] =>
  readFixture('operations.txt')
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
