import { useRefilling } from '../../data/refilling';
import { Button } from '../../ui/button';

/**
 * The open task is not in the replica: gone, or being copied again by a fresh bootstrap (which
 * empties the replica first).
 */
export function MissingTask({ onClose }: { onClose: () => void }) {
  const refilling = useRefilling();
  if (refilling === 'unknown')
    return (
      <aside className="detail padded" aria-label="Task" aria-busy="true">
        <div className="skeleton" style={{ width: '70%', height: 18 }} />
      </aside>
    );
  return (
    <aside className="detail" aria-label="Task" aria-busy={refilling === 'yes'}>
      {refilling === 'yes' ? (
        <div className="empty">
          <strong>Copying this task from the server again</strong>
          <span>It shows here as soon as it arrives.</span>
          <Button onClick={onClose}>Close</Button>
        </div>
      ) : (
        <div className="empty">
          <strong>This task is no longer here</strong>
          <span>It may have been deleted, or moved out of your reach.</span>
          <Button onClick={onClose}>Close</Button>
        </div>
      )}
    </aside>
  );
}
