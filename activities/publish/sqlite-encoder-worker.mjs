// Entry of the SQLite encoder thread (sqlite-encoder-thread.ts): registers the TypeScript loader the
// product runs under, then starts the encoder itself.
import { register } from 'tsx/esm/api';

register();
await import('./sqlite-encoder-work.ts');
