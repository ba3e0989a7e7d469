import { type PoolOptions, type PoolRunnerInitializer, type PoolWorker, ThreadsPoolWorker, type WorkerRequest } from 'vitest/node';

type Listener = (arg: unknown) => void;

const response = (type: 'started' | 'stopped') => ({ type, __vitest_worker_response__: true });

/**
 * A vitest pool whose one worker thread outlives its runs. vitest stops a runner once its queue is empty,
 * so a process that makes many runs (the self-test: one per mutant) would boot a thread and load every
 * library again for each. Here the thread is started once; later runs skip the "start" handshake and a
 * graceful "stop" is answered without ending the thread. A run whose configuration differs (vitest sends it
 * with "start") starts the thread again. Each run declares its checks again (src/harness/areas.ts
 * replays what each area file declared when first loaded), and the harness keys its state by run id
 * (src/harness/session.ts), so nothing a check sees carries over from one run to the next.
 * A forced stop (a cancelled run that would not end) does end the thread; the next run starts a new one.
 */
export class KeptThread implements PoolRunnerInitializer {
  readonly name = 'conform-kept-thread';
  private thread: ThreadsPoolWorker | undefined;
  /** The configuration the thread was started with: a run with another one starts it again. */
  private handshaken: string | undefined;

  createPoolWorker = (options: PoolOptions): PoolWorker => new Lease(this, options);

  /** The thread, started when first asked for. */
  async acquire(options: PoolOptions): Promise<{ thread: ThreadsPoolWorker; handshaken: string | undefined }> {
    if (!this.thread) {
      const thread = new ThreadsPoolWorker(options);
      await thread.start();
      thread.on('exit', () => {
        if (this.thread === thread) this.forget();
      });
      this.thread = thread;
    }
    return { thread: this.thread, handshaken: this.handshaken };
  }

  markHandshaken(config: string): void {
    this.handshaken = config;
  }

  /** Ends the thread (a forced stop, or the runner closing). */
  async end(): Promise<void> {
    const thread = this.thread;
    this.forget();
    await thread?.stop();
  }

  private forget(): void {
    this.thread = undefined;
    this.handshaken = undefined;
  }
}

/** One runner's use of the kept thread: its listeners come off when the runner is done with it. */
class Lease implements PoolWorker {
  readonly name: string;
  private thread: ThreadsPoolWorker | undefined;
  private handshaken: string | undefined;
  private stopAsked = false;
  private readonly listeners: [string, Listener][] = [];

  constructor(
    private readonly keeper: KeptThread,
    private readonly options: PoolOptions,
  ) {
    this.name = keeper.name;
  }

  async start(): Promise<void> {
    const { thread, handshaken } = await this.keeper.acquire(this.options);
    this.thread = thread;
    this.handshaken = handshaken;
  }

  on(event: string, callback: Listener): void {
    this.listeners.push([event, callback]);
    this.held().on(event, callback);
  }

  off(event: string, callback: Listener): void {
    const at = this.listeners.findIndex(([e, c]) => e === event && c === callback);
    if (at !== -1) this.listeners.splice(at, 1);
    this.thread?.off(event, callback);
  }

  send(message: WorkerRequest): void {
    if (message.type === 'start') {
      const config = JSON.stringify(message.context.config);
      if (config === this.handshaken) {
        this.answer('started');
        return;
      }
      this.keeper.markHandshaken(config);
    }
    if (message.type === 'stop') {
      this.stopAsked = true;
      this.answer('stopped');
      return;
    }
    this.held().send(message);
  }

  async stop(): Promise<void> {
    for (const [event, callback] of this.listeners.splice(0)) this.thread?.off(event, callback);
    // Without a graceful "stop" first, vitest is forcing the runner down: the thread may be stuck.
    if (!this.stopAsked) await this.keeper.end();
    this.thread = undefined;
  }

  deserialize(data: unknown): unknown {
    return data;
  }

  private answer(type: 'started' | 'stopped'): void {
    const listeners = this.listeners.filter(([event]) => event === 'message').map(([, callback]) => callback);
    setImmediate(() => {
      for (const callback of listeners) callback(response(type));
    });
  }

  private held(): ThreadsPoolWorker {
    if (!this.thread) throw new Error('the kept worker thread was used before it started');
    return this.thread;
  }
}
