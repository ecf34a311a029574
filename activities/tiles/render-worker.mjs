// Entry of a tile drawing thread (render-threads.ts): registers the TypeScript loader the product runs
// under, then starts the drawing loop itself.
import { register } from 'tsx/esm/api';

register();
await import('./render-work.ts');
