// Entry of the whole-file parse thread (parse-thread.ts): registers the TypeScript loader the product
// runs under, then starts the parser itself.
import { register } from 'tsx/esm/api';

register();
await import('./parse-work.ts');
