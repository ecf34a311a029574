// Entry of the CSV load thread (csv-load-thread.ts): registers the TypeScript loader the product
// runs under, then starts the load itself.
import { register } from 'tsx/esm/api';

register();
await import('./csv-load-work.ts');
