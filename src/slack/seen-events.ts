/** Ids remembered at most: far more than Slack redelivers in the minutes it retries. */
const MAX_IDS = 5000;

/**
 * The events, commands and presses already taken, by Slack's own id (event_id, trigger_id):
 * Slack sends one again when it missed the ack (a dropped connection, a slow network), and a
 * message taken twice would start two turns.
 */
export class SeenEvents {
  private readonly ids = new Set<string>();

  /** True the first time an id is offered; false for a redelivery. */
  first(id: string | undefined): boolean {
    if (id === undefined) return true;
    if (this.ids.has(id)) return false;
    this.ids.add(id);
    if (this.ids.size > MAX_IDS) this.ids.delete(this.ids.values().next().value!);
    return true;
  }
}
