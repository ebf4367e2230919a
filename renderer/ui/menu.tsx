import * as Radix from '@radix-ui/react-dropdown-menu';
import { type ReactNode, useRef } from 'react';

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

function ItemBody({ item }: { item: MenuItem }) {
  return (
    <>
      <span className="grow">{item.label}</span>
      <Radix.ItemIndicator aria-hidden="true">✓</Radix.ItemIndicator>
      {item.hint ? (
        <span className="kbd" aria-hidden="true">
          {item.hint}
        </span>
      ) : null}
    </>
  );
}

/**
 * A menu button on Radix DropdownMenu: Enter, Space or ArrowDown opens it, arrows and typed
 * letters move, Enter picks, Escape closes and gives focus back to the trigger. Not modal: a
 * click elsewhere closes it and still lands, and a dialog opened from an item owns the page.
 */
export function Menu({ label, trigger, items, className, align = 'start' }: MenuProps) {
  const button = useRef<HTMLButtonElement>(null);
  // A picked item runs once the menu has closed and focus is back on the trigger, so a
  // dialog it opens takes focus from the trigger and gives it back there.
  const picked = useRef<(() => void) | null>(null);
  return (
    <div className={`menu-wrap${className ? ` ${className}` : ''}`}>
      <Radix.Root modal={false}>
        <Radix.Trigger ref={button} className="btn btn-ghost btn-sm" aria-label={label}>
          {trigger}
        </Radix.Trigger>
        <Radix.Portal>
          <Radix.Content
            className="menu"
            aria-label={label}
            align={align}
            sideOffset={4}
            collisionPadding={8}
            onCloseAutoFocus={(e) => {
              const run = picked.current;
              picked.current = null;
              if (!run) return;
              e.preventDefault();
              button.current?.focus();
              run();
            }}
          >
            {items.map((item) => {
              const props = {
                className: `menu-item${item.danger ? ' is-danger' : ''}`,
                onSelect: (e: Event) => {
                  if (item.keepOpen) {
                    e.preventDefault();
                    item.onSelect();
                  } else picked.current = item.onSelect;
                },
              };
              return item.checked === undefined ? (
                <Radix.Item key={item.id} {...props}>
                  <ItemBody item={item} />
                </Radix.Item>
              ) : (
                <Radix.CheckboxItem key={item.id} checked={item.checked} {...props}>
                  <ItemBody item={item} />
                </Radix.CheckboxItem>
              );
            })}
          </Radix.Content>
        </Radix.Portal>
      </Radix.Root>
    </div>
  );
}
