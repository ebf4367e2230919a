import { addContact } from './demo-contacts';
import { DAY, type DemoContext, type FieldDef, HOUR, type TaskRec } from './demo-context';
import { people } from './demo-people';
import type { FieldSpec, OrgSpec, ProjectSpec, SpaceSpec } from './demo-spec';
import { idOf, lookupId } from './demo-statements';
import { addTask } from './demo-tasks';
import { personalTags, subtaskTitles, tagColors } from './demo-texts';
import { addOrgMember, createOrg, createUser } from './fixtures';

/** The skeleton of the demo data: users, then each org with its spaces, projects and fields. */

export const createUsers = (
  ctx: DemoContext,
  hashes: { demo: string; other: string; colleague: string },
) => {
  for (const p of people) {
    const hash =
      p.key === 'demo' ? hashes.demo : p.key === 'other' ? hashes.other : hashes.colleague;
    const created = ctx.now - 61 * DAY + ctx.users.size * HOUR;
    const id = createUser(
      ctx.db,
      {
        email: p.email,
        password: '',
        firstName: p.firstName,
        lastName: p.lastName,
        color: p.color,
      },
      created,
      hash,
    );
    ctx.users.set(p.key, id);
    ctx.emailOf.set(id, p.email);
    ctx.nameOf.set(id, `${p.firstName} ${p.lastName}`);
    ctx.counts.users++;
  }
};

export const seedOrg = (ctx: DemoContext, org: OrgSpec) => {
  createOrg(ctx.db, org.name, ctx.now - 61 * DAY, org.orgId);
  ctx.counts.orgs++;
  for (const [key, role] of org.members) addOrgMember(ctx.db, org.orgId, ctx.uid(key), role);
  const topLevel: TaskRec[] = [];
  for (const space of org.spaces) topLevel.push(...seedSpace(ctx, org.orgId, space));
  const demo = ctx.uid('demo');
  for (const title of org.personalTasks) {
    topLevel.push(
      addTask(ctx, {
        orgId: org.orgId,
        spaceId: null,
        projectId: null,
        parent: null,
        title,
        people: [demo],
        tags: personalTags,
        fields: [],
        projectStatus: null,
        earliest: ctx.now - 58 * DAY,
      }),
    );
  }
  // Subtasks under a share of the top-level tasks (project and personal alike).
  const parents = new Set(ctx.rng.sample(topLevel, Math.round(org.subtaskShare * topLevel.length)));
  for (const parent of topLevel) {
    if (!parents.has(parent)) continue;
    const n = ctx.rng.int(org.subtasksPer[0], org.subtasksPer[1]);
    const titles = ctx.rng.sample(subtaskTitles, n);
    for (const title of titles) {
      addTask(ctx, {
        orgId: parent.orgId,
        spaceId: parent.spaceId,
        projectId: parent.projectId,
        parent,
        title,
        people: parent.people,
        tags: parent.tags,
        fields: parent.fields,
        projectStatus: parent.projectStatus,
        earliest: parent.created,
      });
    }
  }
};

const seedSpace = (ctx: DemoContext, orgId: number, spec: SpaceSpec): TaskRec[] => {
  const creator = ctx.uid(spec.members[0]!);
  const created = ctx.ago(59.5, 60);
  const spaceId = idOf(
    ctx.s.space.run(
      orgId,
      spec.name,
      spec.description,
      spec.color,
      spec.spaceType,
      creator,
      creator,
      created,
      created + HOUR,
    ),
  );
  ctx.counts.spaces++;
  spec.members.forEach((key, i) => {
    const u = ctx.uid(key);
    ctx.s.spaceMember.run(
      spaceId,
      u,
      i === 0 ? null : creator,
      i === 0 ? 1 : 2,
      i === 0 ? 'Admin' : 'Member',
    );
  });
  const spaceFields = addFields(ctx, orgId, spaceId, null, spec.fields, creator, created);
  const out: TaskRec[] = [];
  for (const project of spec.projects)
    out.push(...seedProject(ctx, orgId, spaceId, spec, spaceFields, project, created));
  return out;
};

const addFields = (
  ctx: DemoContext,
  orgId: number,
  spaceId: number,
  projectId: number | null,
  specs: readonly FieldSpec[],
  creator: number,
  created: number,
): FieldDef[] => {
  return specs.map((spec, order) => {
    const id = idOf(
      ctx.s.field.run(
        orgId,
        spaceId,
        projectId,
        spec.name,
        spec.description,
        spec.type,
        spec.icon,
        order,
        creator,
        created,
        created,
      ),
    );
    const optionIds =
      spec.type === 'DROPDOWN'
        ? spec.options.map(([name, color]) => idOf(ctx.s.option.run(id, name, color)))
        : [];
    return { id, spec, optionIds };
  });
};

const seedProject = (
  ctx: DemoContext,
  orgId: number,
  spaceId: number,
  space: SpaceSpec,
  spaceFields: FieldDef[],
  spec: ProjectSpec,
  spaceCreated: number,
): TaskRec[] => {
  const members = spec.members.map((k) => ctx.uid(k));
  const creator = members[0]!;
  const created = ctx.between(spaceCreated + HOUR, spaceCreated + 2 * DAY);
  const modified = ctx.between(ctx.now - 5 * DAY);
  const completed = spec.status === 'Completed';

  const contactId = spec.contact ? addContact(ctx, orgId, spec.contact, created) : null;

  const projectId = idOf(
    ctx.s.project.run(
      orgId,
      spaceId,
      spec.name,
      spec.description,
      ctx.dayAt(spec.startDays, 9),
      ctx.dayAt(spec.dueDays),
      spec.isPublic === false ? 0 : 1,
      lookupId(ctx.s.vocab.status, orgId, spec.status),
      lookupId(ctx.s.vocab.priority, orgId, spec.priority),
      lookupId(ctx.s.vocab.health, orgId, spec.health),
      contactId,
      completed ? 1 : 0,
      completed ? modified : null,
      creator,
      ctx.rng.pick(members),
      created,
      modified,
    ),
  );
  ctx.counts.projects++;
  ctx.projects.push({ id: projectId, name: spec.name, orgId, created, modified });
  spec.tags.forEach((tag, i) => {
    ctx.s.projectTag.run(projectId, tag, tagColors[i % tagColors.length]!, creator);
  });
  members.forEach((u, i) => {
    ctx.s.projectMember.run(
      projectId,
      u,
      i === 0 ? null : creator,
      i === 0 ? 1 : 2,
      i === 0 ? 'Manager' : 'Member',
    );
  });
  const fields = [
    ...spaceFields,
    ...addFields(ctx, orgId, spaceId, projectId, spec.fields ?? [], creator, created),
  ];

  const out: TaskRec[] = [];
  for (const title of spec.tasks) {
    out.push(
      addTask(ctx, {
        orgId,
        spaceId,
        projectId,
        parent: null,
        title,
        people: members,
        tags: space.taskTags,
        fields,
        projectStatus: spec.status,
        earliest: created,
      }),
    );
  }
  const done = out.filter((t) => t.done).length;
  ctx.s.projectCompletion.run(
    completed ? 100 : Math.round((100 * done) / Math.max(1, out.length)),
    projectId,
  );
  return out;
};
