import { useEffect, useState } from 'react';
import { useApp } from '../data/app-store';
import { bridge } from '../data/bridge';
import { Button } from '../ui/button';

/**
 * The open task is not in the replica. It is gone only if the host, asked after it went
 * missing, has no fresh bootstrap under way: one empties the replica and fills it again, and
 * its news can reach this view after the emptied lists do.
 */
export function MissingTask({ onClose }: { onClose: () => void }) {
  const refilling = useApp((s) => s.session?.bootstrapping === true);
  const [gone, setGone] = useState(false);
  useEffect(() => {
    // While the store knows of a refill the panel waits; once it ends, ask again.
    if (refilling) return;
    let live = true;
    setGone(false);
    bridge()
      .invoke('session.state', {})
      .then(
        (s) => live && setGone(!s.bootstrapping),
        () => live && setGone(true),
      );
    return () => {
      live = false;
    };
  }, [refilling]);
  if (refilling || !gone)
    return (
      <aside className="detail" aria-label="Task" aria-busy="true">
        {refilling ? (
          <div className="empty">
            <strong>Copying this task from the server again</strong>
            <span>It shows here as soon as it arrives.</span>
            <Button onClick={onClose}>Close</Button>
          </div>
        ) : (
          <div className="padded">
            <div className="skeleton" style={{ width: '70%', height: 18 }} />
          </div>
        )}
      </aside>
    );
  return (
    <aside className="detail" aria-label="Task">
      <div className="empty">
        <strong>This task is no longer here</strong>
        <span>It may have been deleted, or moved out of your reach.</span>
        <Button onClick={onClose}>Close</Button>
      </div>
    </aside>
  );
}
