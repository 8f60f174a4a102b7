import type { SendMeter } from '../../kernel/concurrency/send-budget.ts';
import { instruments, WAIT_SECONDS } from './metrics-instruments.ts';

const chatApps = instruments((meter) => ({
  calls: meter.createCounter('jsonl_bridge.chat_app.calls', {
    unit: '{call}',
    description: "Calls to a chat app's API that send or edit, by transport and outcome",
  }),
  rateLimits: meter.createCounter('jsonl_bridge.chat_app.rate_limits', {
    unit: '{call}',
    description: 'Calls a chat app refused for its rate limit (HTTP 429, a flood wait), by transport',
  }),
  waits: meter.createHistogram('jsonl_bridge.chat_app.send_wait', {
    unit: 's',
    description: "How long a call waited for its chat's send budget (the app's per-chat limit, a 429's pause) before it was made",
    advice: { explicitBucketBoundaries: WAIT_SECONDS },
  }),
}));

/** The send budget's meter for one transport, named by its id (a fixed set: the transports the code knows). */
export function sendMeter(transport: string): SendMeter {
  // At 0 from the start: a panel shows none rather than no data, and rate() counts the first.
  chatApps().rateLimits.add(0, { transport });
  return {
    called(outcome) {
      const made = chatApps();
      made.calls.add(1, { transport, outcome });
      if (outcome === 'rate_limited') made.rateLimits.add(1, { transport });
    },
    waited(ms) {
      chatApps().waits.record(ms / 1000, { transport });
    },
    rateLimited() {
      chatApps().rateLimits.add(1, { transport });
    },
  };
}
