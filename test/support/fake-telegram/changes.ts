import { EventEmitter } from 'node:events';

/**
 * One signal for "something in the fake changed" (a call finished, a message was stored or
 * edited, a query answered). `waitFor` re-checks its predicate on each signal instead of
 * polling on a timer.
 */
export class Changes {
  private readonly emitter = new EventEmitter().setMaxListeners(0);

  notify(): void {
    this.emitter.emit('change');
  }

  subscribe(listener: () => void): () => void {
    this.emitter.on('change', listener);
    return () => this.emitter.off('change', listener);
  }
}
