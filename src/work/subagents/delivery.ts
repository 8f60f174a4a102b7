/** Where an announcement stands: parts already sent are never sent again. */
export interface Delivery {
  chat: 'pending' | 'sent' | 'skipped';
  /** For an announcement split into several messages: how many went out. */
  sentParts: number;
  attempts: number;
  lastError?: string;
  /** When the next attempt is due (after a failure). */
  retryAt?: number;
  /**
   * When the call sending part `sentParts` began, until its answer is saved: found at a start,
   * the bridge stopped during that call, and whether the chat got the part is unknown.
   */
  sending?: number;
  /** The outcome handed back to the main agent that asked for the work (tool spawns, agent-made plans). */
  agent?: 'pending' | 'sent' | 'skipped';
}

export function pendingDelivery(toAgent: boolean, inChat = true): Delivery {
  return { chat: inChat ? 'pending' : 'skipped', sentParts: 0, attempts: 0, ...(toAgent ? { agent: 'pending' as const } : {}) };
}

export function needsDelivery(delivery: Delivery): boolean {
  return delivery.chat === 'pending' || delivery.agent === 'pending';
}

/** The saved state with a change merged in; fields set to undefined are dropped. */
export function patchDelivery(delivery: Delivery, patch: Partial<Delivery>): Delivery {
  const merged: Record<string, unknown> = { ...delivery, ...patch };
  for (const key of Object.keys(merged)) if (merged[key] === undefined) delete merged[key];
  return merged as unknown as Delivery;
}
