/**
 * Replica changes, gathered per source and told once per turn of the event loop: a bootstrap
 * page or a burst of edits is one event, not hundreds. A kind with very many changed rows is
 * told as `kind:*`.
 */
export type ChangeSource = 'edit' | 'pull' | 'push';

const MANY = 500;

export class ChangeBatcher {
  private readonly pending = new Map<ChangeSource, Set<string>>();
  private queued = false;

  constructor(private readonly tell: (entities: string[], source: ChangeSource) => void) {}

  add(keys: Iterable<string>, source: ChangeSource): void {
    let set = this.pending.get(source);
    if (!set) {
      set = new Set();
      this.pending.set(source, set);
    }
    for (const k of keys) set.add(k);
    if (!this.queued) {
      this.queued = true;
      setImmediate(() => this.flush());
    }
  }

  flush(): void {
    this.queued = false;
    for (const [source, keys] of this.pending) {
      if (keys.size > 0) this.tell(summarize(keys), source);
    }
    this.pending.clear();
  }
}

const summarize = (keys: ReadonlySet<string>): string[] => {
  if (keys.size <= MANY) return [...keys];
  const kinds = new Set<string>();
  for (const k of keys) kinds.add(k.slice(0, k.indexOf(':')));
  return [...kinds].map((k) => `${k}:*`);
};
