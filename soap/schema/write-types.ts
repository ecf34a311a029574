import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { SCHEMA } from './registry.js';
import { renderTypeScript } from './typescript-emitter.js';

/** Regenerates generated-types.ts after a change to the table: `npx tsx soap/schema/write-types.ts`. */
export const GENERATED_TYPES_PATH = fileURLToPath(new URL('./generated-types.ts', import.meta.url));

writeFileSync(GENERATED_TYPES_PATH, renderTypeScript(SCHEMA));
