import { useEffect, useState } from 'preact/hooks';
import { ago, when } from './format.ts';

/** A moment as "3 min ago", kept current, with the exact time for machines and on hover. */
export function Ago({ at }: { at: number }) {
  const [now, setNow] = useState(Date.now());
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 30_000);
    return () => clearInterval(timer);
  }, []);
  return (
    <time dateTime={new Date(at).toISOString()} title={when(at)}>
      {ago(at, now)}
    </time>
  );
}
