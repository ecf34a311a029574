/**
 * The spare-threads test's thread: its work (echoed with its thread id), then every
 * later message echoed; 'close' ends it. SPARE_ECHO_EXIT makes an idle thread end on its own.
 */
import { threadId } from 'node:worker_threads';
import { receiveWork } from '../../../../activities/publish/spare-threads.js';

if (process.env.SPARE_ECHO_EXIT) process.exit(3);
const { init, port, onMessage } = await receiveWork<unknown>(
  (await import('node:worker_threads')).parentPort,
);
port.postMessage({ init, threadId });
// Set after a turn of the loop: messages sent with the work wait for it, in order.
await new Promise((r) => setTimeout(r, 50));
onMessage((m) => {
  if (m === 'close') process.exit(0);
  port.postMessage({ echo: m });
});
