import { useEffect, useState } from 'react';
import { useApp } from './app-store';
import { bridge } from './bridge';

/**
 * Whether a fresh bootstrap is emptying the replica and filling it again, for a view that finds
 * its rows gone: the store's session says so, or, while it says not, the host asked then (the
 * session's news can reach a view after the emptied rows do). `unknown` until the host answers.
 */
export function useRefilling(): 'yes' | 'no' | 'unknown' {
  const stored = useApp((s) => s.session?.bootstrapping === true);
  const [host, setHost] = useState<boolean | null>(null);
  useEffect(() => {
    // While the store knows of a refill there is nothing to ask; once it ends, ask again.
    if (stored) return;
    let live = true;
    setHost(null);
    bridge()
      .invoke('session.state', {})
      .then(
        (s) => live && setHost(s.bootstrapping),
        () => live && setHost(false),
      );
    return () => {
      live = false;
    };
  }, [stored]);
  if (stored || host === true) return 'yes';
  return host === null ? 'unknown' : 'no';
}
