/**
 * The spare-threads test's thread that serves one load after another (serveLoads): each work message
 * is echoed with the thread's id and a count of the loads this thread has served, then answered with
 * a final message; a work of `{ fail: true }` fails.
 */
import { parentPort, threadId } from 'node:worker_threads';
import { serveLoads } from '../../../../activities/publish/spare-threads.js';

let served = 0;
serveLoads<{ job: number; fail?: boolean }>(parentPort, async (init) => {
  served++;
  parentPort?.postMessage({ init, threadId, served });
  await new Promise((r) => setTimeout(r, 10));
  return init.fail ? { type: 'failed', job: init.job } : { type: 'done', job: init.job };
});
