// The TypeScript loader entry of echo-work.ts, as the product's thread kinds keep one.
import { register } from 'tsx/esm/api';

register();
await import('./echo-work.ts');
