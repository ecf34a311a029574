// Entry of the CSV encoder thread (csv-encoder-thread.ts): registers the TypeScript loader the
// product runs under, then starts the encoder itself.
import { register } from 'tsx/esm/api';

register();
await import('./csv-encoder-work.ts');
