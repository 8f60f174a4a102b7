import { useState } from 'preact/hooks';
import { post } from './api.ts';

/**
 * Stops a run or a plan as the chat's Stop does, and says what became of it. The button goes
 * once the run has ended; what it was told stays, in a live region that was there before it.
 */
export function StopButton({ path, label, active }: { path: string; label: string; active: boolean }) {
  const [told, setTold] = useState('');
  const [busy, setBusy] = useState(false);
  const stop = async () => {
    setBusy(true);
    const answer = await post<{ text: string }>(path, {}).catch((error: Error) => ({ text: error.message }));
    setTold(answer.text);
    setBusy(false);
  };
  return (
    <div class="buttons">
      {active && (
        <button type="button" class="danger" data-testid="stop" disabled={busy} onClick={() => void stop()}>
          ⏹ {label}
        </button>
      )}
      <span class="told" role="status" data-testid="stop-told">
        {told}
      </span>
    </div>
  );
}
