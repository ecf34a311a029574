import { MockActivityEnvironment } from '@temporalio/testing';
import { describe, expect, it } from 'vitest';
import {
  heartbeatingActivities,
  recordProgress,
  withTimerHeartbeats,
} from '../../../activities/heartbeat.js';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function beatsOf(env: MockActivityEnvironment): unknown[] {
  const beats: unknown[] = [];
  env.on('heartbeat', (d: unknown) => beats.push(d));
  return beats;
}

describe('timer heartbeats', () => {
  it('beat every third of the heartbeat timeout while a step waits, repeating the last progress', async () => {
    const env = new MockActivityEnvironment({ heartbeatTimeoutMs: 300 });
    const beats = beatsOf(env);
    await env.run(() =>
      withTimerHeartbeats(async () => {
        recordProgress({ rowNumber: 7 });
        // One statement that takes 550 ms: the timer (every 100 ms) beats about five times meanwhile.
        await sleep(550);
      }),
    );
    expect(beats[0]).toEqual({ rowNumber: 7 });
    expect(beats.length).toBeGreaterThanOrEqual(4);
    expect(beats.every((b) => JSON.stringify(b) === '{"rowNumber":7}')).toBe(true);
  });

  it('repeat the previous attempt’s resume point until the activity records its own', async () => {
    const env = new MockActivityEnvironment({ heartbeatTimeoutMs: 300, heartbeatDetails: { rowNumber: 40 } });
    const beats = beatsOf(env);
    await env.run(() => withTimerHeartbeats(() => sleep(250)));
    expect(beats.length).toBeGreaterThanOrEqual(1);
    expect(beats.every((b) => JSON.stringify(b) === '{"rowNumber":40}')).toBe(true);
  });

  it('stop when the step ends, and never beat without a heartbeat timeout', async () => {
    const timed = new MockActivityEnvironment({ heartbeatTimeoutMs: 300 });
    const timedBeats = beatsOf(timed);
    await timed.run(() => withTimerHeartbeats(() => sleep(150)));
    const afterEnd = timedBeats.length;
    await sleep(300);
    expect(timedBeats.length).toBe(afterEnd);

    const untimed = new MockActivityEnvironment({ heartbeatTimeoutMs: undefined });
    const untimedBeats = beatsOf(untimed);
    await untimed.run(() => withTimerHeartbeats(() => sleep(250)));
    expect(untimedBeats).toEqual([]);
  });

  it('wrap every activity of a group, passing arguments and results through', async () => {
    const group = heartbeatingActivities({
      add: async (a: number, b: number) => {
        await sleep(150);
        return a + b;
      },
    });
    const env = new MockActivityEnvironment({ heartbeatTimeoutMs: 150 });
    const beats = beatsOf(env);
    expect(await env.run(group.add, 2, 3)).toBe(5);
    expect(beats.length).toBeGreaterThanOrEqual(1);
  });
});
