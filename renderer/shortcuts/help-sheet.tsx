import { useApp } from '../data/app-store';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { shortcuts, showCombo } from './keys';

/** Every shortcut, from the one table the key handler uses. */
export function HelpSheet() {
  const open = useApp((s) => s.helpOpen);
  const close = () => useApp.setState({ helpOpen: false });
  const groups = new Map<string, { label: string; combo: string }[]>();
  for (const s of Object.values(shortcuts))
    groups.set(s.group, [...(groups.get(s.group) ?? []), s]);
  groups.set('Board', [
    { label: 'Move the focused card to the next column', combo: 'Alt+← / Alt+→' },
  ]);
  return (
    <Dialog
      open={open}
      title="Keyboard shortcuts"
      onClose={close}
      wide
      footer={<Button onClick={close}>Close</Button>}
    >
      <div className="help-grid">
        {[...groups].map(([group, list]) => (
          <section key={group}>
            <h3>{group}</h3>
            <dl className="help-list">
              {list.map((s) => (
                <div key={s.label} className="row">
                  <dt className="grow">{s.label}</dt>
                  <dd>
                    <kbd>{s.combo.includes('/') ? s.combo : showCombo(s.combo)}</kbd>
                  </dd>
                </div>
              ))}
            </dl>
          </section>
        ))}
      </div>
    </Dialog>
  );
}
