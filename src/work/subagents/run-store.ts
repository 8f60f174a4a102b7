import type { SubagentRunRecord } from './record.ts';
import { LiveStore } from './live-store.ts';

/** Runs in `<dataDir>/subagents.json`, and those archived in `subagents-archive.jsonl`. */
export class RunStore extends LiveStore<SubagentRunRecord> {
  static async open(dataDir: string): Promise<RunStore> {
    return new RunStore(
      ...(await LiveStore.load<SubagentRunRecord>(dataDir, { name: 'subagents', field: 'runs', idOf: (run) => run.runId, chatOf: (run) => run.requesterKey })),
    );
  }

  /** A run by its id, among the live ones and then the archive (a page may ask about any run it listed). */
  async find(runId: string): Promise<SubagentRunRecord | undefined> {
    return this.get(runId) ?? (await this.archived()).find((run) => run.runId === runId);
  }
}
