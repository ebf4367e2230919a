import { useState } from 'react';
import { Button } from './button';
import { ConfirmDialog, Dialog } from './dialog';

/**
 * An opener and its dialog for component tests, the way the views use them: open from state,
 * not a trigger. What the confirmation did shows in an `<output>`.
 */
export function DialogHarness({ confirm = false }: { confirm?: boolean }) {
  const [open, setOpen] = useState(false);
  const [said, setSaid] = useState('');
  const close = () => setOpen(false);
  return (
    <>
      <Button onClick={() => setOpen(true)}>Open</Button>
      <output>{said}</output>
      {confirm ? (
        <ConfirmDialog
          open={open}
          title="Delete this task?"
          message="It goes for everyone."
          confirmLabel="Delete"
          onCancel={close}
          onConfirm={() => {
            setSaid('deleted');
            close();
          }}
        />
      ) : (
        <Dialog
          open={open}
          title="New task"
          onClose={close}
          footer={<Button onClick={close}>Cancel</Button>}
        >
          <input aria-label="Status" />
          <input aria-label="Title" data-autofocus />
        </Dialog>
      )}
    </>
  );
}
