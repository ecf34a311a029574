// A thread's work module for the thread-bundle tests: answers each message with a TypeScript
// helper's result, so a bundle that left its imports out would fail.
import { parentPort } from 'node:worker_threads';
import { doubled } from './helper.js';

parentPort?.on('message', (m: number) => parentPort?.postMessage({ doubled: doubled(m) }));
