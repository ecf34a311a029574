/**
 * Loading threads started ahead of need (spare-threads.ts): a load takes an idle thread when there is
 * one, the messages sent with its work are kept until its handler is set, released threads are
 * replaced up to the most used at once, and an idle thread that ends is dropped, not handed out.
 */
import { once } from 'node:events';
import type { Worker } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import {
  endSpares,
  keepThread,
  prestartThread,
  releaseThread,
  spareThreadIds,
  takeThread,
} from '../../../activities/publish/spare-threads.js';

const url = new URL('./spare-threads/echo-worker.mjs', import.meta.url);
const serving = new URL('./spare-threads/serve-worker.mjs', import.meta.url);

/** The next `n` messages of a thread. */
async function messages(worker: Worker, n: number): Promise<any[]> {
  const out: any[] = [];
  while (out.length < n) out.push((await once(worker, 'message'))[0]);
  return out;
}

async function close(worker: Worker) {
  const exited = once(worker, 'exit');
  worker.postMessage('close');
  await exited;
}

const until = async (ok: () => boolean) => {
  for (let i = 0; i < 400 && !ok(); i++) await new Promise((r) => setTimeout(r, 25));
  return ok();
};

afterEach(async () => {
  delete process.env.SPARE_ECHO_EXIT;
  await endSpares();
});

describe('spare loading threads', () => {
  it('hands a new thread its work, then the messages sent with it, in order', async () => {
    expect(spareThreadIds(url).length).toBe(0);
    const worker = takeThread(url, { job: 1 });
    worker.postMessage('a');
    worker.postMessage('b');
    const [first, a, b] = await messages(worker, 3);
    expect(first.init).toEqual({ job: 1 });
    expect(first.threadId).toBe(worker.threadId);
    expect([a, b]).toEqual([{ echo: 'a' }, { echo: 'b' }]);
    releaseThread(url, 0);
    await close(worker);
  });

  it('keeps as many idle threads as were used at once, and hands them out started', async () => {
    const used = [takeThread(url, { job: 1 }), takeThread(url, { job: 2 })];
    await Promise.all(used.map((w) => messages(w, 1)));
    releaseThread(url, 0);
    expect(spareThreadIds(url).length).toBe(0); // one is still in use
    releaseThread(url, 0);
    await Promise.all(used.map(close));
    expect(await until(() => spareThreadIds(url).length === 2)).toBe(true);
    const idle = spareThreadIds(url);
    expect(idle).not.toContain(used[0].threadId);
    expect(idle).not.toContain(used[1].threadId);
    const again = [takeThread(url, { job: 3 }), takeThread(url, { job: 4 })];
    const replies = (await Promise.all(again.map((w) => messages(w, 1)))).map(([m]) => m);
    expect(replies.map((m) => m.init)).toEqual([{ job: 3 }, { job: 4 }]);
    // The idle threads themselves, started before they were taken.
    expect(replies.map((m) => m.threadId).sort()).toEqual([...idle].sort());
    expect(spareThreadIds(url).length).toBe(0);
    const third = takeThread(url, { job: 5 });
    const [m5] = await messages(third, 1);
    expect(idle).not.toContain(m5.threadId); // none left idle: a new one
    for (const w of [...again, third]) {
      releaseThread(url, 60_000);
      await close(w);
    }
  });

  it('drops an idle thread that ends on its own and starts a new one for the next load', async () => {
    const worker = takeThread(url, { job: 1 });
    await messages(worker, 1);
    process.env.SPARE_ECHO_EXIT = '1';
    releaseThread(url, 0);
    await close(worker);
    // The spare starts, ends at once (exit code 3), and is forgotten without an unhandled event.
    await new Promise((r) => setTimeout(r, 1500));
    expect(spareThreadIds(url).length).toBe(0);
    delete process.env.SPARE_ECHO_EXIT;
    const next = takeThread(url, { job: 2 });
    const [m] = await messages(next, 1);
    expect(m.init).toEqual({ job: 2 });
    releaseThread(url, 60_000);
    await close(next);
  });

  it('has one thread ready for a first load, and none while a load of its kind runs', async () => {
    prestartThread(url, 0);
    expect(await until(() => spareThreadIds(url).length === 1)).toBe(true);
    const [ready] = spareThreadIds(url);
    const worker = takeThread(url, { job: 1 });
    expect(worker.threadId).toBe(ready);
    await messages(worker, 1);
    prestartThread(url, 0);
    await new Promise((r) => setTimeout(r, 200));
    expect(spareThreadIds(url)).toEqual([]);
    releaseThread(url, 0);
    await close(worker);
    expect(await until(() => spareThreadIds(url).length === 1)).toBe(true);
  });

  it('has a counted number ready for a first load, and as many again after a load that used fewer', async () => {
    prestartThread(url, 0, 2);
    expect(await until(() => spareThreadIds(url).length === 2)).toBe(true);
    const ready = spareThreadIds(url);
    const worker = takeThread(url, { job: 1 });
    expect(ready).toContain(worker.threadId);
    await messages(worker, 1);
    expect(spareThreadIds(url).length).toBe(1);
    releaseThread(url, 0);
    await close(worker);
    // The load used one thread; two are idle again, the one left and a new one.
    expect(await until(() => spareThreadIds(url).length === 2)).toBe(true);
    const after = spareThreadIds(url);
    expect(after).not.toContain(worker.threadId);
    expect(after.filter((id) => ready.includes(id)).length).toBe(1);
  });

  it('keeps a thread whose load ended well for the next load, as many as were used at once', async () => {
    const first = takeThread(serving, { job: 1 });
    const [m1, end1] = await messages(first, 2);
    expect(m1).toEqual({ init: { job: 1 }, threadId: first.threadId, served: 1 });
    expect(end1).toEqual({ type: 'done', job: 1 });
    expect(keepThread(serving, first)).toBe(true);
    expect(spareThreadIds(serving)).toEqual([first.threadId]);
    // The same thread, with what it kept from its first load, serves the second.
    const again = takeThread(serving, { job: 2 });
    expect(again).toBe(first);
    expect(spareThreadIds(serving)).toEqual([]);
    const [m2, end2] = await messages(again, 2);
    expect(m2).toEqual({ init: { job: 2 }, threadId: first.threadId, served: 2 });
    expect(end2).toEqual({ type: 'done', job: 2 });
    // Two at once: both kept.
    const other = takeThread(serving, { job: 3 });
    await messages(other, 2);
    expect(keepThread(serving, again)).toBe(true);
    expect(keepThread(serving, other)).toBe(true);
    expect(spareThreadIds(serving).sort()).toEqual([first.threadId, other.threadId].sort());
    // Five at once: the two kept serve again, and four at most are kept idle.
    const five = [4, 5, 6, 7, 8].map((job) => takeThread(serving, { job }));
    const served = await Promise.all(five.map((w) => messages(w, 2)));
    expect(served.map(([m]) => m.served).sort()).toEqual([1, 1, 1, 2, 3]);
    expect(five.map((w) => keepThread(serving, w))).toEqual([true, true, true, true, false]);
    await close(five[4]);
    expect(spareThreadIds(serving).length).toBe(4);
  });

  it('drops a kept thread that ends while idle, and one whose load failed is not kept', async () => {
    const worker = takeThread(serving, { job: 1, fail: true });
    const [, end] = await messages(worker, 2);
    expect(end).toEqual({ type: 'failed', job: 1 });
    releaseThread(serving, 60_000);
    await close(worker);
    const kept = takeThread(serving, { job: 2 });
    await messages(kept, 2);
    expect(keepThread(serving, kept)).toBe(true);
    expect(spareThreadIds(serving)).toEqual([kept.threadId]);
    const exited = once(kept, 'exit');
    kept.postMessage('close');
    await exited;
    expect(await until(() => spareThreadIds(serving).length === 0)).toBe(true);
    const next = takeThread(serving, { job: 3 });
    expect(next).not.toBe(kept);
    const [m] = await messages(next, 1);
    expect(m).toMatchObject({ init: { job: 3 }, served: 1 });
    releaseThread(serving, 60_000);
    await close(next);
  });
});
