import type { ChatRef } from '../../kernel/ports/chat.ts';
import type { Timing } from './timing.ts';

/** One schedule of a chat: what it says, when, and as what it runs. */
export interface Schedule {
  id: string;
  /** #n within its chat: what /schedules pause|resume|delete take. */
  number: number;
  chatKey: string;
  chat: ChatRef;
  prompt: string;
  timing: Timing;
  /** Who made it: a person (their id and name), or the chat's agent through its `schedule` tool. */
  by:
    | { kind: 'user'; id: string; name?: string; /** As allowlists hold them (`<transport>:<id>`): checked again at each firing. */ key?: string }
    | {
        kind: 'agent';
        /** The person whose turn made it (`<transport>:<id>`): it is theirs, checked as theirs at each firing. None: a turn no person typed made it. */
        for?: { id: string; key: string };
      };
  /** The message whose /every or /at made it (`<chat>#<message id>`), saved in its first write: a replay after a restart finds it. */
  fromMessage?: string;
  /** With --spawn: a run with /spawn's options (as written); otherwise a turn of the chat's main session. */
  spawn?: string;
  paused: boolean;
  createdAt: number;
  /** When it fires next; none once a one-shot has fired. */
  nextAt?: number;
  lastAt?: number;
  fired: number;
}
