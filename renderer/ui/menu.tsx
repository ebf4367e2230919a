import { type ReactNode, useEffect, useId, useRef, useState } from 'react';

export interface MenuItem {
  id: string;
  label: string;
  hint?: string;
  danger?: boolean;
  checked?: boolean;
  /** Picking it leaves the menu open (a checkbox among several to set at once). */
  keepOpen?: boolean;
  onSelect: () => void;
}

export interface MenuProps {
  /** The trigger's accessible label. */
  label: string;
  trigger: ReactNode;
  items: readonly MenuItem[];
  className?: string;
  align?: 'start' | 'end';
}

/**
 * A menu button (WAI-ARIA pattern): Enter, Space or ArrowDown opens it, arrows move,
 * Enter picks, Escape closes and returns focus to the trigger.
 */
export function Menu({ label, trigger, items, className, align = 'start' }: MenuProps) {
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const button = useRef<HTMLButtonElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const id = useId();

  useEffect(() => {
    if (!open) return;
    list.current?.focus();
    const close = (e: MouseEvent) => {
      const t = e.target as Node;
      if (!list.current?.contains(t) && !button.current?.contains(t)) setOpen(false);
    };
    document.addEventListener('mousedown', close);
    return () => document.removeEventListener('mousedown', close);
  }, [open]);

  const pick = (i: number) => {
    const item = items[i];
    if (!item?.keepOpen) {
      setOpen(false);
      button.current?.focus();
    }
    item?.onSelect();
  };

  return (
    <div className={`menu-wrap${className ? ` ${className}` : ''}`}>
      <button
        ref={button}
        type="button"
        className="btn btn-ghost btn-sm"
        aria-haspopup="menu"
        aria-expanded={open}
        aria-controls={open ? id : undefined}
        aria-label={label}
        onClick={() => {
          setActive(0);
          setOpen((o) => !o);
        }}
        onKeyDown={(e) => {
          if (e.key === 'ArrowDown') {
            e.preventDefault();
            setActive(0);
            setOpen(true);
          }
        }}
      >
        {trigger}
      </button>
      {open ? (
        <div
          ref={list}
          id={id}
          role="menu"
          aria-label={label}
          tabIndex={-1}
          className={`menu menu-${align}`}
          aria-activedescendant={`${id}-${active}`}
          onKeyDown={(e) => {
            if (e.key === 'ArrowDown') setActive((a) => (a + 1) % items.length);
            else if (e.key === 'ArrowUp') setActive((a) => (a - 1 + items.length) % items.length);
            else if (e.key === 'Home') setActive(0);
            else if (e.key === 'End') setActive(items.length - 1);
            else if (e.key === 'Enter' || e.key === ' ') pick(active);
            else if (e.key === 'Escape' || e.key === 'Tab') {
              setOpen(false);
              button.current?.focus();
            } else return;
            e.preventDefault();
            e.stopPropagation();
          }}
        >
          {items.map((item, i) => (
            // biome-ignore lint/a11y/useAriaPropsSupportedByRole: the role is menuitemcheckbox whenever aria-checked is set
            // biome-ignore lint/a11y/noStaticElementInteractions: the role is menuitem(checkbox), only not as a literal
            <div
              key={item.id}
              id={`${id}-${i}`}
              role={item.checked === undefined ? 'menuitem' : 'menuitemcheckbox'}
              aria-checked={item.checked}
              tabIndex={-1}
              className={`menu-item${i === active ? ' is-active' : ''}${item.danger ? ' is-danger' : ''}`}
              onMouseEnter={() => setActive(i)}
              onClick={() => pick(i)}
              onKeyDown={() => undefined}
            >
              <span className="grow">{item.label}</span>
              {item.checked ? <span aria-hidden="true">✓</span> : null}
              {item.hint ? (
                <span className="kbd" aria-hidden="true">
                  {item.hint}
                </span>
              ) : null}
            </div>
          ))}
        </div>
      ) : null}
    </div>
  );
}
