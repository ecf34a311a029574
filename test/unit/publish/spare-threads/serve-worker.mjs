// Entry of the spare-threads test's serving thread: registers the TypeScript loader, as the loading threads do.
import { register } from 'tsx/esm/api';

register();
await import('./serve-work.ts');
