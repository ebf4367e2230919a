import { useApp } from '../data/app-store';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { shortcutGroups, showCombo } from './keys';

/** A combo as the keyboard says it; one already written for people ("Alt+← / Alt+→") as is. */
const comboText = (combo: string) => (combo.includes(' / ') ? combo : showCombo(combo));

/** Every shortcut, from the one table the key handler uses, by group: the sheet's and Settings'. */
export function ShortcutList() {
  return (
    <div className="help-grid">
      {shortcutGroups().map(({ group, list }) => (
        <section key={group}>
          <h3>{group}</h3>
          <dl className="help-list">
            {list.map((s) => (
              <div key={s.label} className="row">
                <dt className="grow">{s.label}</dt>
                <dd>
                  <kbd>{comboText(s.combo)}</kbd>
                </dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </div>
  );
}

export function HelpSheet() {
  const open = useApp((s) => s.helpOpen);
  const close = () => useApp.setState({ helpOpen: false });
  return (
    <Dialog
      open={open}
      title="Keyboard shortcuts"
      onClose={close}
      wide
      footer={<Button onClick={close}>Close</Button>}
    >
      <ShortcutList />
    </Dialog>
  );
}
