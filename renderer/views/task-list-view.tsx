import { useMemo, useState } from 'react';
import type { CustomField } from '../../shared/api/custom-fields';
import type { BridgeInput, BridgeTaskScope } from '../../shared/bridge';
import { saveSettings, useApp } from '../data/app-store';
import { useQuery } from '../data/query';
import { FilterBuilder } from '../filters/filter-builder';
import { activeFilterCount, cleanFilter, type FilterValue } from '../filters/filter-model';
import { basePriorities, baseStatuses, mergeNames } from '../lib/vocab';
import { Button } from '../ui/button';
import { Dialog } from '../ui/dialog';
import { TextField } from '../ui/field';
import { IconFilter, IconPlus } from '../ui/icons';
import { Menu } from '../ui/menu';
import { toast } from '../ui/toast';
import { type SortKey, TaskTable } from './task-table';

export interface TaskListViewProps {
  scope: BridgeTaskScope;
  title: string;
  /** Extra toolbar content (a project's List/Board switch). */
  actions?: React.ReactNode;
  /** Shown above the list (My tasks' summary). */
  header?: React.ReactNode;
}

/** One empty list, so memoized rows see the same props frame after frame. */
const noFields: CustomField[] = [];

const openTask = (id: number) => useApp.getState().openTask(id);

const sameScope = (a: BridgeTaskScope, b: BridgeTaskScope) =>
  JSON.stringify(a) === JSON.stringify(b);

/** A list of tasks with its filters, sort, grouping and saved views. */
export function TaskListView({ scope, title, actions, header }: TaskListViewProps) {
  const [filter, setFilter] = useState<FilterValue>({});
  const [sort, setSort] = useState<SortKey[]>([]);
  const [grouped, setGrouped] = useState(false);
  const [showFilters, setShowFilters] = useState(false);
  const [naming, setNaming] = useState(false);
  const selected = useApp((s) => s.openTaskId);
  const settings = useApp((s) => s.settings);
  const projectId = scope.kind === 'project' ? scope.projectId : undefined;

  // The rows first: what the filters and extra columns need is read right after them.
  const ready = useApp((s) => s.mainReady) || showFilters;
  const counts = useQuery('tasks.statusCounts', { scope }, ready);
  const users = useQuery('users.list', {}, ready);
  const fields = useQuery(
    'customFields.forScope',
    projectId === undefined ? {} : { projectId },
    ready,
  );
  const sample = useQuery('tasks.list', { scope, limit: 500 }, showFilters);
  const clean = useMemo(() => cleanFilter(filter), [filter]);

  const statuses = mergeNames(
    baseStatuses,
    (counts.data?.counts ?? []).map((c) => c.status),
  );
  const priorities = mergeNames(
    basePriorities,
    (sample.data?.items ?? []).map((t) => t.priority),
  );
  const tags = [...new Set((sample.data?.items ?? []).flatMap((t) => t.tags ?? []))].sort();
  const views = (settings?.savedViews ?? []).filter((v) => sameScope(v.scope, scope));
  const nFilters = activeFilterCount(filter);

  const saveView = async (name: string) => {
    const view: NonNullable<BridgeInput<'settings.set'>['savedViews']>[number] = {
      id: `v${Date.now().toString(36)}`,
      name,
      scope,
      filter: clean,
      sort,
    };
    await saveSettings({ savedViews: [...(settings?.savedViews ?? []), view] });
    toast(`Saved view “${name}”`, 'success');
  };

  return (
    <div className="main">
      <div className="toolbar">
        <h1>{title}</h1>
        {views.length > 0 ? (
          <Menu
            label="Saved views"
            trigger="Views"
            align="end"
            items={[
              ...views.map((v) => ({
                id: v.id,
                label: v.name,
                onSelect: () => {
                  setFilter(v.filter as FilterValue);
                  setSort(v.sort as SortKey[]);
                },
              })),
              ...views.map((v) => ({
                id: `del-${v.id}`,
                label: `Delete “${v.name}”`,
                danger: true,
                onSelect: () =>
                  void saveSettings({
                    savedViews: (settings?.savedViews ?? []).filter((x) => x.id !== v.id),
                  }),
              })),
            ]}
          />
        ) : null}
        <Button size="sm" variant="ghost" onClick={() => setNaming(true)}>
          Save view
        </Button>
        <label className="row toggle">
          <input type="checkbox" checked={grouped} onChange={(e) => setGrouped(e.target.checked)} />
          Group by status
        </label>
        <Button
          size="sm"
          icon={<IconFilter />}
          aria-expanded={showFilters}
          aria-controls="filter-panel"
          onClick={() => setShowFilters((s) => !s)}
        >
          Filters{nFilters ? ` · ${nFilters}` : ''}
        </Button>
        {actions}
        <Button
          size="sm"
          variant="primary"
          icon={<IconPlus />}
          shortcut="C"
          onClick={() => useApp.getState().set({ newTaskOpen: true })}
        >
          New task
        </Button>
      </div>
      {header}
      <div className="list-area">
        {showFilters ? (
          <div id="filter-panel" className="filter-panel">
            <FilterBuilder
              value={filter}
              onChange={setFilter}
              statuses={statuses}
              priorities={priorities}
              tags={tags}
              users={users.data?.users ?? []}
              customFields={fields.data?.fields ?? []}
            />
          </div>
        ) : null}
        <TaskTable
          label={title}
          scope={scope}
          filter={clean}
          sort={sort}
          onSort={setSort}
          groupByStatus={grouped}
          customFields={projectId === undefined ? noFields : (fields.data?.fields ?? noFields)}
          selectedId={selected}
          onSelect={openTask}
          onOpen={openTask}
        />
      </div>
      <SaveViewDialog
        open={naming}
        onClose={() => setNaming(false)}
        onSave={(name) => {
          setNaming(false);
          void saveView(name);
        }}
      />
    </div>
  );
}

function SaveViewDialog({
  open,
  onClose,
  onSave,
}: {
  open: boolean;
  onClose: () => void;
  onSave: (name: string) => void;
}) {
  const [name, setName] = useState('');
  return (
    <Dialog
      open={open}
      title="Save this view"
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>Cancel</Button>
          <Button variant="primary" type="submit" form="save-view" disabled={!name.trim()}>
            Save
          </Button>
        </>
      }
    >
      <form
        id="save-view"
        onSubmit={(e) => {
          e.preventDefault();
          if (name.trim()) onSave(name.trim());
          setName('');
        }}
      >
        <TextField
          label="Name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          hint="The filters and sort of this list, kept in your settings."
          data-autofocus
        />
      </form>
    </Dialog>
  );
}
