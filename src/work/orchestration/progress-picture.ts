import { createHash } from 'node:crypto';
import { isNoChat, type Outbound, type RichText } from '../../kernel/ports/chat.ts';
import type { SubagentRunRecord } from '../subagents/record.ts';
import { warnIfFails, type Log } from '../../kernel/log/logger.ts';
import type { OrchestrationRecord } from './orchestration-record.ts';

/** How an orchestration is drawn (the presentation's and the pictures' work, handed in). */
export interface ProgressDrawing {
  /** The graph as it is now, as SVG: what is compared, so an unchanged picture is not sent again. */
  svg(orchestration: OrchestrationRecord, runOf: (runId: string) => SubagentRunRecord | undefined): string;
  caption(orchestration: OrchestrationRecord): RichText;
  /** The SVG as a PNG (off the main thread). */
  png(svg: string): Promise<Uint8Array>;
}

export interface ProgressPictureOptions {
  out: Outbound;
  drawing: ProgressDrawing;
  get: (id: string) => OrchestrationRecord | undefined;
  runOf: (runId: string) => SubagentRunRecord | undefined;
  /** Saves on the record (under the orchestration's lock) the picture's message and what it shows now. */
  remember: (id: string, picture: NonNullable<OrchestrationRecord['picture']>) => Promise<void>;
  log: Log;
}

/**
 * The picture beside an orchestration's progress message: its graph, each step coloured by
 * its state. It is sent once, right after the progress message, and replaced each time the
 * progress message is brought up to date and the graph has changed (the record keeps a
 * digest of what it shows, across restarts too). One picture is in flight per orchestration
 * at a time: updates that come meanwhile make one more, of the state as it is then, so the
 * last state always lands and nothing queues up behind a slow chat. A picture that cannot be
 * drawn or sent is logged and left out: the first one failing, the orchestration goes on in
 * text alone; a later one failing, the next update tries again.
 */
export class ProgressPictures {
  private readonly busy = new Map<string, { again: boolean }>();
  /** Orchestrations whose first picture was tried and failed: it is not sent later, out of its place. */
  private readonly failed = new Set<string>();

  constructor(private readonly options: ProgressPictureOptions) {}

  /** Sends the first picture, or brings the one sent up to date: in the background, never failing. */
  update(id: string): void {
    const running = this.busy.get(id);
    if (running) {
      running.again = true;
      return;
    }
    const state = { again: true };
    this.busy.set(id, state);
    void (async () => {
      while (state.again) {
        state.again = false;
        await warnIfFails(this.draw(id), this.options.log, "the orchestration's picture", { orchestration: id });
      }
    })().finally(() => this.busy.delete(id));
  }

  /** No picture being drawn or sent. */
  isIdle(): boolean {
    return this.busy.size === 0;
  }

  private async draw(id: string): Promise<void> {
    const { out, drawing } = this.options;
    const record = this.options.get(id);
    if (!record?.progressMessageId || isNoChat(record.chat) || !out.sendPicture || !out.editPicture) return;
    if (this.failed.has(id)) {
      if (record.status !== 'running') this.failed.delete(id); // its last update: nothing of it is kept
      return;
    }
    const shown = record.picture;
    try {
      const svg = drawing.svg(record, this.options.runOf);
      const drawn = createHash('sha256').update(svg).digest('base64url').slice(0, 22);
      if (drawn === shown?.drawn) return;
      const picture = { png: await drawing.png(svg), filename: `orchestration-${record.number}.png`, caption: drawing.caption(record) };
      if (shown) await out.editPicture({ ...record.chat, messageId: shown.messageId }, picture);
      const messageId = shown?.messageId ?? (await out.sendPicture(record.chat, picture)).messageId;
      await this.options.remember(id, { messageId, drawn });
    } catch (error) {
      if (!shown && record.status === 'running') this.failed.add(id);
      throw error;
    }
  }
}
