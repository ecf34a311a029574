/**
 * Loading threads started ahead of need. A thread's start (its TypeScript loader, its module graph,
 * the projection tables) took about a third of a second on two cores before its first batch, on every
 * load. Each loading thread's entry now waits for its work by message, so a thread can be started
 * while the worker is idle and handed a load later: after a load, as many threads of its kind as it
 * used are started again (SPARE_DELAY_MS later, unless a load of that kind has started meanwhile),
 * held idle and unreferenced, so they neither keep the process alive nor take CPU until a load takes
 * them. Measured: a CSV load thread answered its work 545–707 ms after it was created, and 6–14 ms
 * after it was handed to a spare started ahead.
 */
import { type MessagePort, Worker } from 'node:worker_threads';

/** The heap limits of every loading thread. */
const RESOURCE_LIMITS = { maxYoungGenerationSizeMb: 96, maxOldGenerationSizeMb: 512 };
/**
 * How long after a load its spares are started: most of a layer's index build, which takes the cores
 * after its load, is past by then, and the next publish of a series has not started its load yet.
 */
export const SPARE_DELAY_MS = 1000;
/** At most this many idle threads of one kind (the SQLite path uses up to four at once). */
const MAX_SPARES = 4;

interface Spare {
  worker: Worker;
  /** Set when the idle thread ended or failed: it is not handed out. */
  gone: boolean;
  forget(): void;
}

const spares = new Map<string, Spare[]>();
const timers = new Map<string, NodeJS.Timeout>();

const startWorker = (url: URL) => new Worker(url, { execArgv: [], resourceLimits: RESOURCE_LIMITS });

function startSpare(url: URL): Spare {
  return spareOf(url, startWorker(url));
}

/** An idle thread of `url`'s kind, held unreferenced and dropped if it ends or fails. */
function spareOf(url: URL, worker: Worker): Spare {
  const spare: Spare = {
    worker,
    gone: false,
    forget: () => {
      worker.off('error', onGone);
      worker.off('exit', onGone);
    },
  };
  // An idle thread that fails is dropped; its error must not reach the process as an unhandled event.
  function onGone() {
    spare.gone = true;
    spare.forget();
    const list = spares.get(url.href);
    if (list)
      spares.set(
        url.href,
        list.filter((s) => s !== spare),
      );
  }
  worker.on('error', onGone);
  worker.on('exit', onGone);
  worker.unref();
  return spare;
}

/** Threads of each kind handed out and not yet released, and the most at once. */
const inUse = new Map<string, { now: number; peak: number }>();

/**
 * A thread of `url`'s kind given `init`: an idle one started earlier when there is one, else a new one.
 * The entry's first message is its work. Released with releaseThread when its load ends.
 */
export function takeThread(url: URL, init: unknown): Worker {
  const list = spares.get(url.href) ?? [];
  let spare = list.shift();
  while (spare?.gone) spare = list.shift();
  let worker: Worker;
  if (spare) {
    spare.forget();
    worker = spare.worker;
    worker.ref();
  } else {
    worker = startWorker(url);
  }
  // A load of this kind is starting: spares are not started beside it.
  clearTimeout(timers.get(url.href));
  timers.delete(url.href);
  const use = inUse.get(url.href) ?? { now: 0, peak: 0 };
  use.now++;
  use.peak = Math.max(use.peak, use.now);
  inUse.set(url.href, use);
  worker.postMessage(init);
  return worker;
}

/** Starts idle threads of `url`'s kind after `delayMs`, up to `count`, unless a load takes one first. */
function spareLater(url: URL, count: number, delayMs: number): void {
  clearTimeout(timers.get(url.href));
  const timer = setTimeout(() => {
    timers.delete(url.href);
    const list = (spares.get(url.href) ?? []).filter((s) => !s.gone);
    while (list.length < Math.min(count, MAX_SPARES)) list.push(startSpare(url));
    spares.set(url.href, list);
  }, delayMs);
  timer.unref();
  timers.set(url.href, timer);
}

/**
 * A thread whose load ended well, kept idle for the next load of its kind (its entry serves one load
 * after another: serveLoads) instead of ending it and starting a fresh one: the next load finds its
 * code compiled and optimised, where a fresh thread compiles its module graph and its hot functions
 * again (measured on a million-row CSV publish: each fresh loading thread took 0.1-0.3 CPU-s to start,
 * and its optimising compiler ran again beside the load). Kept only while fewer than the most used at
 * once are idle; otherwise false, and the caller ends it. Releases the thread either way.
 */
export function keepThread(url: URL, worker: Worker): boolean {
  const list = (spares.get(url.href) ?? []).filter((s) => !s.gone);
  const use = inUse.get(url.href);
  const keep = list.length < Math.min(use?.peak ?? 1, MAX_SPARES);
  if (keep) {
    list.push(spareOf(url, worker));
    spares.set(url.href, list);
  }
  releaseThread(url);
  return keep;
}

/**
 * A thread whose load ended well, handed back: its load's listeners are taken off and it is kept for
 * the next load (keepThread). True when kept; otherwise it keeps a listener that swallows its errors
 * while the caller ends it.
 */
export function handBackThread<M>(
  url: URL,
  worker: Worker,
  listeners: { message(m: M): void; error(e: Error): void; exit(code: number): void },
): boolean {
  worker.off('message', listeners.message);
  worker.off('error', listeners.error);
  worker.off('exit', listeners.exit);
  if (keepThread(url, worker)) return true;
  worker.on('error', () => {});
  return false;
}

/**
 * Has `count` idle threads of `url`'s kind ready for a first load (a worker at its start), after
 * `delayMs`; as many are kept idle after later loads, even loads that used fewer.
 */
export function prestartThread(url: URL, delayMs: number, count = 1): void {
  const use = inUse.get(url.href) ?? { now: 0, peak: 0 };
  use.peak = Math.max(use.peak, count);
  inUse.set(url.href, use);
  if (use.now === 0) spareLater(url, use.peak, delayMs);
}

/**
 * A thread of `url`'s kind is done. When none is in use, idle threads are started again, after
 * `delayMs`, up to the most this kind has used at once (at most MAX_SPARES).
 */
export function releaseThread(url: URL, delayMs = SPARE_DELAY_MS): void {
  const use = inUse.get(url.href);
  if (!use) return;
  use.now = Math.max(0, use.now - 1);
  if (use.now > 0) return;
  spareLater(url, use.peak, delayMs);
}

/** The thread ids of the idle threads of `url`'s kind (for tests). */
export const spareThreadIds = (url: URL): number[] =>
  (spares.get(url.href) ?? []).filter((s) => !s.gone).map((s) => s.worker.threadId);

/** Ends every idle thread (tests, and a worker shutting down). */
export async function endSpares(): Promise<void> {
  for (const t of timers.values()) clearTimeout(t);
  timers.clear();
  const all = [...spares.values()].flat();
  spares.clear();
  inUse.clear();
  await Promise.all(
    all.map((s) => {
      s.forget();
      return s.worker.terminate();
    }),
  );
}

/**
 * In a loading thread that serves one load after another (keepThread): `run` is called with each work
 * message, one at a time (a thread is handed new work only after its last load's final message), and
 * its final message is posted when it ends; 'close' ends the thread. The listener is set at once, so a
 * work message sent before the thread's modules were loaded is not lost.
 */
export function serveLoads<T>(port: MessagePort | null, run: (init: T) => Promise<unknown>): void {
  if (!port) throw new Error('A loading thread runs in a worker thread.');
  port.on('message', (m: unknown) => {
    if (m === 'close') process.exit(0);
    void run(m as T).then((final) => port.postMessage(final));
  });
}

/**
 * In a loading thread: its work (the first message), and where the messages after it go. One listener
 * takes every message from the start, so none sent before the thread's handler is set is lost.
 */
export async function receiveWork<T, M = unknown>(
  port: MessagePort | null,
): Promise<{ init: T; port: MessagePort; onMessage(handler: (m: M) => void): void }> {
  if (!port) throw new Error('A loading thread runs in a worker thread.');
  const early: M[] = [];
  let handler: ((m: M) => void) | null = null;
  let resolveInit: (init: T) => void = () => {};
  const init = new Promise<T>((resolve) => {
    resolveInit = resolve;
  });
  let first = true;
  port.on('message', (m: unknown) => {
    if (first) {
      first = false;
      resolveInit(m as T);
    } else if (handler) handler(m as M);
    else early.push(m as M);
  });
  return {
    init: await init,
    port,
    onMessage(h) {
      handler = h;
      for (const m of early.splice(0)) h(m);
    },
  };
}
