import { startWorkerProcess, type BridgeProcess } from '../support/bridge-process.ts';
import { TEST_LOCK_SECONDS, TEST_QUEUE_SECRET } from '../support/queue-world.ts';
import { startRedis, type RedisServer } from '../support/redis-server.ts';

/**
 * The chaos run's workers: with a queue (BRIDGE_REDIS_URL, or a redis-server of its own),
 * runs and chats' sessions go to two worker processes, and among each cycle's faults one
 * worker may be SIGKILLed mid-run (its runs' and chats' turns sent again to the other, in their
 * sessions as last copied back) or SIGTERMed (drained: its turns finish or are handed back to
 * the other), then started again.
 */
export interface ChaosQueue {
  /** What the bridge and the workers need to use the queue. */
  env: Record<string, string>;
  stop(): Promise<void>;
}

/** The queue on `url` (the operator's BRIDGE_REDIS_URL), or on a redis-server started here. */
export async function chaosQueue(url: string | undefined, secret: string | undefined): Promise<ChaosQueue> {
  const own: RedisServer | undefined = url ? undefined : await startRedis();
  return {
    env: {
      BRIDGE_REDIS_URL: url ?? own!.url,
      BRIDGE_QUEUE_SECRET: secret ?? TEST_QUEUE_SECRET,
      // A dead worker's runs are announced within seconds, not a minute.
      BRIDGE_WORKER_LOCK_SECONDS: String(TEST_LOCK_SECONDS),
      // The chats' own sessions live on the workers too, and must lose no turn when one dies.
      BRIDGE_SESSION_WORKERS: 'on',
    },
    stop: async () => own?.stop(),
  };
}

export interface WorkerFaults {
  sigkill: number;
  drained: number;
}

export class ChaosWorkers {
  private readonly workers = new Map<string, BridgeProcess>();
  /** Each worker process's log, in order, for a run with problems. */
  readonly logs: string[] = [];
  /** The fault under way: its worker is started again once it has left. */
  private pending: Promise<void> = Promise.resolve();

  constructor(
    /** The bridge's environment less its chat app's settings: a worker has no bot token. */
    private readonly env: Record<string, string>,
    private readonly names: readonly string[] = ['w1', 'w2'],
  ) {}

  async start(): Promise<void> {
    await Promise.all(this.names.map((name) => this.startOne(name)));
  }

  /**
   * Perhaps a fault on one worker, chosen by `random`: SIGKILL, or SIGTERM and its drain. The
   * worker is started again once it has left, in the background; the next fault waits for that.
   */
  async fault(random: () => number, tally: WorkerFaults): Promise<void> {
    await this.pending;
    if (random() >= 0.6) return;
    const name = this.names[Math.floor(random() * this.names.length)]!;
    const worker = this.workers.get(name)!;
    if (random() < 0.5) {
      tally.sigkill++;
      worker.kill('SIGKILL');
    } else {
      tally.drained++;
      worker.kill('SIGTERM');
    }
    this.pending = worker.exited.then(async () => {
      this.logs.push(`${name}\n${worker.log()}`);
      await this.startOne(name);
    });
  }

  async stop(): Promise<void> {
    await this.pending.catch(() => {});
    await Promise.all(
      [...this.workers].map(async ([name, worker]) => {
        worker.kill('SIGTERM');
        await worker.exited;
        this.logs.push(`${name}\n${worker.log()}`);
      }),
    );
  }

  private async startOne(name: string): Promise<void> {
    const worker = startWorkerProcess({ ...this.env, BRIDGE_WORKER_NAME: name });
    this.workers.set(name, worker);
    await worker.waitForLog(/taking work from/, 60_000);
  }
}
