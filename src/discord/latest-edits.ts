interface Waiting {
  run: () => Promise<unknown>;
  settle: { resolve(value: unknown): void; reject(error: unknown): void }[];
}

/**
 * Edits of one message, one at a time, the latest winning: an edit waiting behind one under
 * way is replaced by a newer one, and every caller of the replaced edits gets the newer one's
 * outcome. Progress edits of a busy channel then never pile up in the REST queue behind its
 * rate limit; the message ends showing the last text asked for.
 */
export class LatestEdits {
  private readonly lanes = new Map<string, { waiting: Waiting | undefined }>();

  run<T>(key: string, call: () => Promise<T>): Promise<T> {
    const lane = this.lanes.get(key);
    if (!lane) {
      this.lanes.set(key, { waiting: undefined });
      return this.start(key, call);
    }
    return new Promise<T>((resolve, reject) => {
      const settle = { resolve: resolve as (value: unknown) => void, reject };
      lane.waiting = { run: call, settle: [...(lane.waiting?.settle ?? []), settle] };
    });
  }

  private start<T>(key: string, call: () => Promise<T>): Promise<T> {
    const done = call();
    const next = () => {
      const lane = this.lanes.get(key);
      const waiting = lane?.waiting;
      if (!lane || !waiting) {
        this.lanes.delete(key);
        return;
      }
      lane.waiting = undefined;
      this.start(key, waiting.run).then(
        (value) => waiting.settle.forEach((s) => s.resolve(value)),
        (error: unknown) => waiting.settle.forEach((s) => s.reject(error)),
      );
    };
    done.then(next, next);
    return done;
  }
}
