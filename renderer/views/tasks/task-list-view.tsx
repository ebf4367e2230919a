import { useMemo, useState } from 'react';
import type { CustomField } from '../../../shared/api/custom-fields';
import type { BridgeInput, BridgeTaskScope } from '../../../shared/bridge';
import { saveSettings, useApp } from '../../data/app-store';
import { useQuery } from '../../data/query';
import { FilterBuilder } from '../../filters/filter-builder';
import { activeFilterCount, cleanFilter, type FilterValue } from '../../filters/filter-model';
import { basePriorities, baseStatuses, mergeNames } from '../../lib/vocab';
import { Button } from '../../ui/button';
import { Dialog } from '../../ui/dialog';
import { TextField } from '../../ui/field';
import { IconColumns, IconFilter, IconPlus, IconViews } from '../../ui/icons';
import { Menu } from '../../ui/menu';
import { toast } from '../../ui/toast';
import { allColumns, type SortKey } from './table-columns';
import { TaskTable } from './task-table';

export interface TaskListViewProps {
  scope: BridgeTaskScope;
  title: string;
  /** Extra toolbar content (a project's List/Board switch). */
  actions?: React.ReactNode;
  /** Shown above the list (My tasks' summary, whose chips set the list's filter). */
  header?: React.ReactNode | ((list: ListFilter) => React.ReactNode);
  /** The filter the list opens with (My tasks: open tasks only). */
  initialFilter?: FilterValue;
}

export interface ListFilter {
  filter: FilterValue;
  setFilter: (filter: FilterValue) => void;
}

/** One empty list, so memoized rows see the same props frame after frame. */
const noFields: CustomField[] = [];

const openTask = (id: number) => useApp.getState().openTask(id);

const sameScope = (a: BridgeTaskScope, b: BridgeTaskScope) =>
  JSON.stringify(a) === JSON.stringify(b);

/** A list of tasks with its filters, sort, grouping and saved views. */
export function TaskListView({
  scope,
  title,
  actions,
  header,
  initialFilter = {},
}: TaskListViewProps) {
  const [filter, setFilter] = useState<FilterValue>(initialFilter);
  const [sort, setSort] = useState<SortKey[]>([]);
  const [grouped, setGrouped] = useState(false);
  /** Columns the user picked; null: the default set, fitted to the width. */
  const [columns, setColumns] = useState<string[] | null>(null);
  const [shownColumns, setShownColumns] = useState<readonly string[]>([]);
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
  const tableFields = projectId === undefined ? noFields : (fields.data?.fields ?? noFields);

  const saveView = async (name: string) => {
    const view: NonNullable<BridgeInput<'settings.set'>['savedViews']>[number] = {
      id: `v${Date.now().toString(36)}`,
      name,
      scope,
      filter: clean,
      sort,
      ...(columns ? { columns } : {}),
    };
    await saveSettings({ savedViews: [...(settings?.savedViews ?? []), view] });
    toast(`Saved view “${name}”`, 'success');
  };

  return (
    <div className="main">
      <div className="toolbar">
        <h1 className="ellipsis" title={title}>
          {title}
        </h1>
        <Menu
          label="Saved views"
          trigger={<IconLabel icon={<IconViews />} text="Views" />}
          align="end"
          items={[
            ...views.map((v) => ({
              id: v.id,
              label: v.name,
              onSelect: () => {
                setFilter(v.filter as FilterValue);
                setSort(v.sort as SortKey[]);
                setColumns(v.columns ?? null);
              },
            })),
            { id: 'save', label: 'Save this view…', onSelect: () => setNaming(true) },
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
        <DisplayMenu
          fields={tableFields}
          columns={columns}
          shown={shownColumns}
          onColumns={setColumns}
          grouped={grouped}
          onGrouped={setGrouped}
        />
        <Button
          size="sm"
          icon={<IconFilter />}
          aria-expanded={showFilters}
          aria-controls="filter-panel"
          aria-label={`Filters${nFilters ? `, ${nFilters} on` : ''}`}
          onClick={() => setShowFilters((s) => !s)}
        >
          <span className="btn-label">Filters</span>
          {nFilters ? <span className="pill pill-accent">{nFilters}</span> : null}
        </Button>
        {actions}
        <Button
          size="sm"
          variant="primary"
          icon={<IconPlus />}
          shortcut="C"
          aria-label="New task"
          onClick={() => useApp.getState().set({ newTaskOpen: true })}
        >
          <span className="btn-label">New task</span>
        </Button>
      </div>
      {typeof header === 'function' ? header({ filter, setFilter }) : header}
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
          customFields={tableFields}
          columns={columns}
          onShownColumns={setShownColumns}
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

/** How the list is laid out: grouping and the columns shown (kept with a saved view). */
function DisplayMenu(props: {
  fields: readonly CustomField[];
  columns: string[] | null;
  /** What the table shows now (the fitted set when nothing is picked). */
  shown: readonly string[];
  onColumns: (columns: string[] | null) => void;
  grouped: boolean;
  onGrouped: (grouped: boolean) => void;
}) {
  const shown = props.columns ?? props.shown;
  const toggle = (id: string) => {
    const all = allColumns(props.fields).map((c) => c.id);
    const next = shown.includes(id) ? shown.filter((c) => c !== id) : [...shown, id];
    props.onColumns(all.filter((c) => next.includes(c)));
  };
  return (
    <Menu
      label="Display"
      trigger={<IconLabel icon={<IconColumns />} text="Display" />}
      align="end"
      items={[
        {
          id: 'group',
          label: 'Group by status',
          checked: props.grouped,
          keepOpen: true,
          onSelect: () => props.onGrouped(!props.grouped),
        },
        ...allColumns(props.fields)
          .filter((c) => c.id !== 'title')
          .map((c) => ({
            id: c.id,
            label: `${c.label} column`,
            checked: shown.includes(c.id),
            keepOpen: true,
            onSelect: () => toggle(c.id),
          })),
        {
          id: 'fit',
          label: 'Fit columns to the window',
          checked: props.columns === null,
          onSelect: () => props.onColumns(null),
        },
      ]}
    />
  );
}

/** A toolbar control's icon and its words (which a narrow toolbar hides). */
function IconLabel({ icon, text }: { icon: React.ReactNode; text: string }) {
  return (
    <>
      {icon}
      <span className="btn-label">{text}</span>
    </>
  );
}
