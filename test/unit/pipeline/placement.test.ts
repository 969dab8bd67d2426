/**
 * The engine pool without Docker: engines are small in-memory stand-ins that
 * answer pings (or not), report stopped containers and count reaps, so the
 * placement and retry rules run in milliseconds.
 */
import { describe, expect, it } from 'vitest';
import { EngineError, EnginesBrokenError, EngineUnreachableError } from '../../../src/errors.js';
import { EnginePool, refusalKey, type Placement, type PlacementEvent, type PoolEngine, type PoolOptions } from '../../../src/pipeline/placement.js';

class FakeEngine implements PoolEngine {
  up = true;
  /** Pings that time out before the engine answers again. */
  slowPings = 0;
  stopped: string | undefined;
  reaped: string[][] = [];
  running = 0;
  mostAtOnce = 0;

  constructor(
    readonly name: string,
    readonly slots: number,
  ) {}

  async ping(): Promise<void> {
    if (this.slowPings > 0) {
      this.slowPings--;
      throw new Error('timed out');
    }
    if (!this.up) throw Object.assign(new Error('connect ECONNREFUSED /x.sock'), { code: 'ECONNREFUSED' });
  }

  async stoppedWork(): Promise<string | undefined> {
    return this.stopped;
  }

  async reap(works: readonly string[]): Promise<number> {
    this.reaped.push([...works]);
    return works.length;
  }
}

const FAST: PoolOptions = { probeMs: 10, pingTimeoutMs: 20, backoffMs: 40, maxBackoffMs: 400, allDownGraceMs: 60_000 };
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function pool(engines: FakeEngine[], options: PoolOptions = {}) {
  const events: (PlacementEvent & { at: number })[] = [];
  const started = Date.now();
  const made = new EnginePool(engines, { ...FAST, ...options, report: (e) => events.push({ ...e, at: Date.now() - started }) });
  return { pool: made, events };
}

/** Work that holds its engine's slot for `ms` and counts how many run there at once. */
const busy = (ms: number) => async (p: Placement<FakeEngine>) => {
  p.engine.running++;
  p.engine.mostAtOnce = Math.max(p.engine.mostAtOnce, p.engine.running);
  await sleep(ms);
  p.engine.running--;
  await p.confirm();
  return p.engine.name;
};

/** Work that runs until its engine is lost (its signal aborts), then asks the pool to confirm. */
const untilLost = async (p: Placement<FakeEngine>) => {
  while (!p.signal.aborted) await sleep(5);
  await p.confirm();
  return p.engine.name;
};

const refuse = (detail: string) => async () => {
  throw new EngineError('create', detail);
};

describe('placing work on engines', () => {
  it('never gives an engine more work than its slots, and spreads work evenly', async () => {
    const a = new FakeEngine('a', 2);
    const b = new FakeEngine('b', 2);
    const { pool: p } = pool([a, b]);
    const where = await Promise.all([...Array(8).keys()].map((i) => p.run(`w${i}`, busy(20))));
    await p.close();
    expect(a.mostAtOnce).toBeLessThanOrEqual(2);
    expect(b.mostAtOnce).toBeLessThanOrEqual(2);
    expect(p.placements()).toEqual({ a: 4, b: 4 });
    expect(where.filter((e) => e === 'a')).toHaveLength(4);
  });

  it('gives more work to the engine with more slots', async () => {
    const big = new FakeEngine('big', 3);
    const small = new FakeEngine('small', 1);
    const { pool: p } = pool([big, small]);
    await Promise.all([...Array(8).keys()].map((i) => p.run(`w${i}`, busy(20))));
    await p.close();
    expect(small.mostAtOnce).toBe(1);
    expect(p.placements().big).toBeGreaterThanOrEqual(5);
  });
});

describe('a lost engine', () => {
  it('has its work placed again on another engine, and its containers reaped once it is back', async () => {
    const a = new FakeEngine('a', 1);
    const b = new FakeEngine('b', 1);
    const { pool: p, events } = pool([a, b]);
    const result = p.run('w1', async (placement) => (placement.engine === a ? untilLost(placement) : 'b'));
    await sleep(30);
    a.up = false;
    expect(await result).toBe('b');
    expect(events.find((e) => e.type === 'engine-down')).toMatchObject({ engine: 'a', lost: ['w1'], detail: 'it did not answer 2 pings in a row' });
    a.up = true;
    await expect.poll(() => events.some((e) => e.type === 'engine-back'), { timeout: 2000 }).toBe(true);
    expect(a.reaped).toEqual([['w1']]);
    await p.close();
  });

  it('is not marked down for one slow ping under load', async () => {
    const a = new FakeEngine('a', 1);
    const { pool: p, events } = pool([a]);
    const result = p.run('w1', busy(150));
    await sleep(25);
    a.slowPings = 1;
    expect(await result).toBe('a');
    expect(events.filter((e) => e.type === 'engine-down')).toEqual([]);
    await p.close();
  });

  it('is marked down at once when it stopped a container of work under way', async () => {
    const a = new FakeEngine('a', 1);
    const b = new FakeEngine('b', 1);
    const { pool: p, events } = pool([a, b]);
    const result = p.run('w1', async (placement) => (placement.engine === a ? untilLost(placement) : 'b'));
    await sleep(20);
    a.stopped = 'container 0123456789ab of w1';
    expect(await result).toBe('b');
    expect(events.find((e) => e.type === 'engine-down')).toMatchObject({ engine: 'a', detail: expect.stringContaining('it stopped container') });
    a.stopped = undefined;
    await p.close();
  });

  it('is down, not refusing, when a container could not be made because it stopped answering', async () => {
    const a = new FakeEngine('a', 1);
    const b = new FakeEngine('b', 1);
    const { pool: p, events } = pool([a, b]);
    const result = p.run('w1', async (placement) => {
      if (placement.engine !== a) return 'b';
      a.up = false;
      throw new EngineError('create', 'connect ECONNREFUSED /x.sock');
    });
    expect(await result).toBe('b');
    expect(events.some((e) => e.type === 'engine-refused')).toBe(false);
    expect(events.find((e) => e.type === 'engine-down')).toMatchObject({ engine: 'a', lost: ['w1'] });
    a.up = true;
    await expect.poll(() => events.some((e) => e.type === 'engine-back' && e.engine === 'a'), { timeout: 2000 }).toBe(true);
    await p.close();
  });

  it('is not down for a write of ours that found the connection closed, while it still answers', async () => {
    // Issue 34: bugbench's blocked event loop let Docker close an idle connection; "write EPIPE" followed.
    const a = new FakeEngine('a', 1);
    const b = new FakeEngine('b', 1);
    const { pool: p, events } = pool([a, b]);
    const lost = p.run('w1', async () => {
      throw new EngineError('exec', 'write EPIPE');
    });
    await expect(lost).rejects.toThrow('write EPIPE');
    const confirmed = p.run('w2', async (placement) => {
      await placement.confirm(Object.assign(new Error('write EPIPE'), { code: 'EPIPE', syscall: 'write' }));
      return placement.engine.name;
    });
    expect(await confirmed).toMatch(/^[ab]$/);
    expect(events.filter((e) => e.type === 'engine-down')).toEqual([]);
    // The same error from an engine that no longer answers is the engine's.
    const c = new FakeEngine('c', 1);
    const { pool: q, events: qEvents } = pool([c, new FakeEngine('d', 1)]);
    const moved = q.run('w3', async (placement) => {
      if (placement.engine !== c) return 'd';
      c.up = false;
      throw new EngineError('exec', 'write EPIPE');
    });
    expect(await moved).toBe('d');
    expect(qEvents.find((e) => e.type === 'engine-down')).toMatchObject({ engine: 'c', lost: ['w3'] });
    c.up = true;
    await p.close();
    await q.close();
  });

  it('is given work again later each time it fails (back-off), and left out after four failures in a row', async () => {
    const a = new FakeEngine('a', 1);
    const { pool: p, events } = pool([a]);
    let tries = 0;
    const serverError = () => Object.assign(new Error('(HTTP code 500) server error - exec failed'), { statusCode: 500 });
    const result = await p.run('w1', async () => {
      if (++tries <= 3) throw serverError();
      return tries;
    });
    expect(result).toBe(4);
    const downs = events.filter((e) => e.type === 'engine-down').map((e) => e.at);
    const backs = events.filter((e) => e.type === 'engine-back').map((e) => e.at);
    expect(downs).toHaveLength(3);
    const waits = backs.map((at, i) => at - downs[i]!);
    // 40 ms, 80 ms, 160 ms (give or take a probe of 10 ms)
    expect(waits[0]!).toBeGreaterThanOrEqual(35);
    expect(waits[1]!).toBeGreaterThanOrEqual(75);
    expect(waits[2]!).toBeGreaterThanOrEqual(155);

    tries = 0;
    await expect(p.run('w2', async () => (++tries, Promise.reject(serverError())))).rejects.toBeInstanceOf(EnginesBrokenError);
    expect(tries).toBe(4);
    expect(events.find((e) => e.type === 'engine-broken')).toMatchObject({ engine: 'a', detail: expect.stringContaining('failed 4 times in a row'), left: 0 });
    await p.close();
  });

  it('fails the work once every engine has been down longer than the grace', async () => {
    const a = new FakeEngine('a', 1);
    const { pool: p } = pool([a], { allDownGraceMs: 100 });
    const first = p.run('w1', untilLost);
    await sleep(20);
    a.up = false;
    const started = Date.now();
    await expect(first).rejects.toBeInstanceOf(EngineUnreachableError);
    expect(Date.now() - started).toBeLessThan(1000);
    await p.close();
  });
});

describe('an engine that refuses containers', () => {
  const NOFILE = 'runc create failed: unable to start container process: error setting rlimit type 7: operation not permitted: OCI permission denied';

  it('is left out after the same refusal twice in a row; with none left the work fails at once with the engine\'s words', async () => {
    const a = new FakeEngine('a', 2);
    const { pool: p, events } = pool([a], { backoffMs: 2000 });
    let tries = 0;
    const started = Date.now();
    const results = await Promise.allSettled([p.run('w1', () => (tries++, refuse(NOFILE)())), p.run('w2', () => (tries++, refuse(NOFILE)()))]);
    expect(Date.now() - started).toBeLessThan(500);
    expect(tries).toBe(2);
    for (const r of results) {
      expect(r.status).toBe('rejected');
      const error = (r as PromiseRejectedResult).reason;
      expect(error).toBeInstanceOf(EnginesBrokenError);
      expect(error.message).toContain('error setting rlimit type 7');
      expect(error.exitCode).toBe(75);
    }
    expect(events.map((e) => e.type).filter((t) => t !== 'placed')).toEqual(['engine-refused', 'engine-broken']);
    expect(events.find((e) => e.type === 'engine-broken')).toMatchObject({ left: 0 });
    await p.close();
  });

  it('rests after one refusal, then gets the work again; the run goes on elsewhere once it is left out', async () => {
    const a = new FakeEngine('a', 1);
    const b = new FakeEngine('b', 1);
    const { pool: p, events } = pool([a, b]);
    const work = async (placement: Placement<FakeEngine>) => {
      if (placement.engine === a) throw new EngineError('create', `${NOFILE} (container ${'f'.repeat(64)})`);
      return busy(30)(placement);
    };
    const where = await Promise.all([...Array(6).keys()].map((i) => p.run(`w${i}`, work)));
    expect(where.every((e) => e === 'b')).toBe(true);
    expect(events.find((e) => e.type === 'engine-broken')).toMatchObject({ engine: 'a', left: 1, detail: expect.stringContaining('twice in a row') });
    // Once left out, it got no more work.
    const placedOnA = events.filter((e) => e.type === 'placed' && e.engine === 'a').length;
    expect(placedOnA).toBe(2);
    await p.close();
  });

  it('tries again after a different refusal, and counts from zero after work finished well', async () => {
    const a = new FakeEngine('a', 1);
    const { pool: p, events } = pool([a]);
    const answers = ['no space left on device', 'ok', 'no space left on device', 'ok'];
    let i = 0;
    const work = async () => {
      const answer = answers[i++]!;
      if (answer !== 'ok') throw new EngineError('create', answer);
      return answer;
    };
    expect(await p.run('w1', work)).toBe('ok');
    expect(await p.run('w2', work)).toBe('ok');
    expect(events.some((e) => e.type === 'engine-broken')).toBe(false);
    await p.close();
  });

  it('tells refusals apart by their words, not by ids or numbers in them', () => {
    expect(refusalKey(`container ${'a'.repeat(64)} exited: port 34567`)).toBe(refusalKey(`container ${'b'.repeat(64)} exited: port 45678`));
    expect(refusalKey('error setting rlimit type 7')).not.toBe(refusalKey('no space left on device'));
  });
});

describe('cancelling', () => {
  it('ends work that waits for a lost engine at once', async () => {
    const a = new FakeEngine('a', 1);
    const controller = new AbortController();
    const { pool: p } = pool([a], { signal: controller.signal, backoffMs: 60_000 });
    let tries = 0;
    const result = p.run('w1', async (placement) => {
      if (++tries === 1) return untilLost(placement);
      return placement.signal.aborted ? 'cancelled' : 'ran';
    });
    await sleep(20);
    a.up = false;
    await sleep(80); // marked down, the retry now waits for the back-off
    const cancelledAt = Date.now();
    controller.abort();
    expect(await result).toBe('cancelled');
    // At once: the back-off still had about a minute to go.
    expect(Date.now() - cancelledAt).toBeLessThan(500);
    await p.close();
  });

  it('places nothing again once cancelled, even when the work failed on its engine', async () => {
    const a = new FakeEngine('a', 1);
    const controller = new AbortController();
    const { pool: p } = pool([a], { signal: controller.signal });
    let tries = 0;
    const result = p.run('w1', async () => {
      tries++;
      controller.abort();
      throw new EngineError('create', 'refused');
    });
    await expect(result).rejects.toBeInstanceOf(EngineError);
    expect(tries).toBe(1);
    await p.close();
  });

  it('lets work that waits for a resting engine start at once to see the cancellation', async () => {
    const a = new FakeEngine('a', 1);
    const controller = new AbortController();
    const { pool: p } = pool([a], { signal: controller.signal, backoffMs: 60_000 });
    let tries = 0;
    const result = p.run('w1', async (placement) => {
      if (++tries === 1) throw new EngineError('create', 'refused once');
      return placement.signal.aborted ? 'cancelled' : 'ran';
    });
    await sleep(30);
    controller.abort();
    expect(await result).toBe('cancelled');
    expect(tries).toBe(2);
    await p.close();
  });
});
