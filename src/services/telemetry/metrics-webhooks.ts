import { instruments } from './metrics-instruments.ts';
import { statusClass } from './metrics-labels.ts';

/** What became of a delivery (hooks/hook-routes.ts says each). */
export type DeliveryDecision = 'accepted' | 'duplicate' | 'refused' | 'ignored';

const webhooks = instruments((meter) => ({
  deliveries: meter.createCounter('jsonl_bridge.webhook.deliveries', {
    unit: '{delivery}',
    description: 'Webhook deliveries answered, by HTTP status, its class and what became of them',
  }),
}));

/** One delivery answered: its status is one of the few the hook routes answer with. */
export function webhookDelivered(status: number, decision: DeliveryDecision): void {
  webhooks().deliveries.add(1, { 'http.response.status_code': status, status_class: statusClass(status), decision });
}
