// Entry of the workbook reader thread (excel-source.ts) where its bundle cannot be written
// (infra/thread-bundles.ts): registers the TypeScript loader the product runs under, then reads.
import { register } from 'tsx/esm/api';

register();
await import('./excel-work.ts');
