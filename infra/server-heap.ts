/**
 * V8 settings for a process that serves requests: the API's servers (`npm run start:api`, and each server
 * `api/main.ts` forks) and `npm start`, which holds the API and a worker. They are command-line flags:
 * V8 reads them as it sets its heap up, and `v8.setFlagsFromString` once the process runs does not undo
 * what was set up (tried: the collections below still ran).
 *
 * `--no-memory-reducer`. V8's memory reducer waits for a process to go quiet after a busy spell and then
 * runs up to three full collections that compact the whole heap to give memory back. Their last step
 * stops the thread: 58-170 ms for an API server's 60-80 MB heap on a two-core machine (`--trace-gc`
 * under the tile bench), falling on whatever requests arrive as the quiet spell ends (a map client
 * coming back, the next burst of tiles). With the flag the traces hold none of them; the tile bench's
 * rounds after a quiet spell gave ours' p99 7.2-19.7 ms in three runs against 8.0-63 ms in two without
 * (nginx's 6.3-19.4 ms; bench/README.md, tiles, session 43). An idle server then keeps the heap it last
 * needed instead of shrinking it; full collections still run whenever the heap grows.
 */

export const SERVER_V8_FLAGS: readonly string[] = ['--no-memory-reducer'];

/** `execArgv` with the serving flags it lacks added (for the servers a primary forks). */
export function serverExecArgv(execArgv: readonly string[]): string[] {
  return [...execArgv, ...SERVER_V8_FLAGS.filter((flag) => !execArgv.includes(flag))];
}
