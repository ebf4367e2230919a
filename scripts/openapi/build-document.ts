/**
 * Builds the OpenAPI 3.1 document of /v1 from the zod schemas and the endpoint table
 * (shared/api): one operation per table row, nothing written by hand that the table knows.
 *
 * Two things the zod schemas cannot say are supplied here:
 * - names: the shared schema instances get component names (`Task`, `ApiError`, …) in the
 *   generator's own registry for the duration of one build, so `shared/` stays free of
 *   OpenAPI concerns and no zod prototype is patched;
 * - the wire form of path ids and of query parameters whose zod schema parses `unknown`
 *   (see ./parameters).
 */
import {
  OpenAPIRegistry,
  OpenApiGeneratorV31,
  type RouteConfig,
  type ZodMediaTypeObject,
  zodToOpenAPIRegistry,
} from '@asteasolutions/zod-to-openapi';
import type { z } from 'zod';
import {
  apiError,
  attachment,
  attachmentRenameRequest,
  attachmentWithState,
  authTokens,
  billingStatus,
  bulkTask,
  checklistCreateRequest,
  checklistItem,
  checklistUpdateRequest,
  comment,
  contact,
  contentTypesByExtension,
  createProjectTaskData,
  customField,
  customFieldOption,
  customFieldValueInput,
  type EndpointDef,
  emptyEnvelope,
  emptyObject,
  endpoints,
  envelope,
  fieldError,
  manualTimerRequest,
  notification,
  notificationReadResponse,
  type OperationId,
  organization,
  pathParamNames,
  project,
  projectCreateRequest,
  projectHealth,
  projectMember,
  projectPriority,
  projectStatus,
  projectTag,
  rangeTimerRequest,
  refreshRequest,
  space,
  spaceCreateRequest,
  spaceMember,
  spaceUpdateRequest,
  type Tag,
  tags,
  task,
  taskCreateRequest,
  timerRecord,
  timerRequest,
  timerState,
  timerUpdateRequest,
  timesheet,
  timesheetSummary,
  tokenRequest,
  uploadRules,
  userRef,
} from '../../shared/api/index';
import {
  dropNullFromQueryParameters,
  int64,
  type JsonSchema,
  type Parameter,
  pathParam,
  queryParams,
} from './parameters';

export type OpenApiDocument = ReturnType<OpenApiGeneratorV31['generateDocument']>;
type RouteParameters = NonNullable<RouteConfig['parameters']>;
type RawSchema = ZodMediaTypeObject['schema'];

const TASK_REQUEST_NOTE =
  'One body for TaskCreateRequest, TaskUpdateRequest, ProjectTaskCreateRequest, ' +
  'ProjectTaskUpdateRequest, GeneralSubtaskCreateRequest/UpdateRequest and ' +
  'ProjectSubtaskCreateRequest/UpdateRequest: the fields of the spec’s project-task create ' +
  'body. An update sends the full editable state. `customFieldValues` is an extension.';

/**
 * Component names of the shared schema instances. A schema reached by identity anywhere in
 * the document becomes a `$ref`; the page schemas are the instances the table rows use.
 */
const componentSchemas = (): [string, z.ZodType, string?][] => [
  ['UserRef', userRef, 'User reference (createdBy, modifiedBy, deletedBy, user, invitedBy).'],
  ['Organization', organization],
  ['AuthTokens', authTokens, 'Lifetimes in seconds; a refresh rotates the refresh token.'],
  ['TokenRequest', tokenRequest],
  ['RefreshRequest', refreshRequest],
  ['CustomFieldOption', customFieldOption],
  ['CustomField', customField],
  ['CustomFieldValueInput', customFieldValueInput, 'Sets or (null) clears a value: extension.'],
  ['Task', task, 'TaskDto: personal task, project task or subtask.'],
  ['TaskRequest', taskCreateRequest, TASK_REQUEST_NOTE],
  ['BulkTask', bulkTask, 'A task of the bulk export, with its checklist and attachments.'],
  ['SpaceMember', spaceMember],
  ['Space', space],
  ['SpaceCreateRequest', spaceCreateRequest],
  ['SpaceUpdateRequest', spaceUpdateRequest],
  ['Contact', contact],
  ['ProjectStatus', projectStatus],
  ['ProjectPriority', projectPriority],
  ['ProjectHealth', projectHealth],
  ['ProjectTag', projectTag],
  ['ProjectMember', projectMember],
  ['Project', project],
  ['ProjectRequest', projectCreateRequest, 'ProjectCreateRequest and ProjectUpdateRequest.'],
  ['ChecklistItem', checklistItem],
  ['ChecklistCreateRequest', checklistCreateRequest],
  [
    'ChecklistUpdateRequest',
    checklistUpdateRequest,
    'Replaces all three; no assigneeId unassigns.',
  ],
  ['Attachment', attachment],
  ['AttachmentWithState', attachmentWithState, 'Files still uploading carry their progress.'],
  ['AttachmentRenameRequest', attachmentRenameRequest, 'The new name, without extension.'],
  ['TimerState', timerState],
  ['BillingStatus', billingStatus],
  ['TimerRecord', timerRecord, 'TimeTrackerDto. Timestamps in epoch ms; pauses excluded.'],
  ['TimerRequest', timerRequest],
  ['TimerUpdateRequest', timerUpdateRequest],
  ['RangeTimerRequest', rangeTimerRequest],
  ['ManualTimerRequest', manualTimerRequest],
  ['Timesheet', timesheet],
  ['TimesheetSummary', timesheetSummary],
  ['Notification', notification],
  ['NotificationReadResponse', notificationReadResponse],
  ['Comment', comment],
  ['FieldError', fieldError],
  ['ApiError', apiError, '`status` is an HttpStatus constant such as NOT_FOUND.'],
  ['EmptyObject', emptyObject, 'The `data` of a delete.'],
  ['EmptyEnvelope', emptyEnvelope, 'A success envelope without `data`.'],
  ['TaskPage', endpoints.getAll.data],
  ['ProjectPage', endpoints.getAll_2.data],
  ['CommentPage', endpoints.getTaskComments.data],
  ['NotificationPage', endpoints.getNotifications.data],
  ['BulkTaskPage', endpoints.bulkTasks.data, '`nextCursor` is null on the last page.'],
  ['BulkProjectPage', endpoints.bulkProjects.data, '`nextCursor` is null on the last page.'],
  [
    'ProjectTaskCreateResult',
    createProjectTaskData,
    'The spec documents the project; the reference server answers the task unless started ' +
      'with --quirk project-task-create-returns-project. Tell them apart by `taskId`.',
  ],
];

/** Names the instances in the generator's registry, runs `fn`, then restores the registry. */
const withComponentNames = <T>(fn: () => T): T => {
  const previous = new Map<z.ZodType, ReturnType<typeof zodToOpenAPIRegistry.get>>();
  for (const [name, schema, description] of componentSchemas()) {
    if (previous.has(schema)) throw new Error(`${name}: this schema already has a name`);
    const prev = zodToOpenAPIRegistry.get(schema);
    previous.set(schema, prev);
    zodToOpenAPIRegistry.add(schema, {
      ...prev,
      ...(description ? { description } : {}),
      _internal: { ...prev?._internal, refId: name },
    });
  }
  try {
    return fn();
  } finally {
    for (const [schema, prev] of previous) {
      zodToOpenAPIRegistry.remove(schema);
      if (prev) zodToOpenAPIRegistry.add(schema, prev);
    }
  }
};

/**
 * zod-to-openapi 9 writes `.nullable()` of a named schema as `allOf: [$ref, {type: [object,
 * null]}]`, which no null satisfies (null must match both members; upstream: asteasolutions/
 * zod-to-openapi#387). Rewritten to what the zod schema means: the reference, or null.
 */
const nullableRefsAsAnyOf = (node: unknown): void => {
  if (!node || typeof node !== 'object') return;
  for (const value of Object.values(node)) nullableRefsAsAnyOf(value);
  const schema = node as { allOf?: JsonSchema[]; anyOf?: JsonSchema[] };
  const [ref, override, ...rest] = schema.allOf ?? [];
  const types = override?.type;
  if (!ref?.$ref || rest.length > 0 || Object.keys(override ?? {}).length !== 1) return;
  if (!Array.isArray(types) || !types.includes('null')) return;
  delete schema.allOf;
  schema.anyOf = [ref, { type: 'null' }];
};

// ---------------------------------------------------------------------------------------------
// Responses

const errorResponses = {
  400: [
    'BadRequest',
    'Validation failed (`errors` lists the fields), or a missing or non-integer X-Org-Id.',
  ],
  401: ['Unauthorized', 'No access token, or a bad or expired one.'],
  403: ['Forbidden', 'The user is not a member of the organization named by X-Org-Id.'],
  404: ['NotFound', 'Not found; also for a resource of another organization.'],
  409: [
    'Conflict',
    'A timer move the timer’s state does not allow (one running or paused timer per user), ' +
      'or an Idempotency-Key already used for another request.',
  ],
  413: [
    'PayloadTooLarge',
    'The body is over the server’s limit, or (an upload) a file is over the plan limit.',
  ],
  415: ['UnsupportedMediaType', 'A file type the plan does not allow.'],
  429: ['TooManyRequests', 'Rate limited; retry after `Retry-After` seconds.'],
  '5XX': [
    'ServerError',
    'The service failed (500) or is unavailable for a moment (502, 503, 504); retry later.',
  ],
} as const;
type ErrorCode = keyof typeof errorResponses;

const timerMoves = new Set<string>([
  'startTimer',
  'startProjectTaskTimer',
  'pauseTimer',
  'resumeTimer',
  'stopTimer',
]);

/** The error statuses of one operation (contract "Envelope and errors"). */
export const errorStatusesOf = (id: string, row: EndpointDef): ErrorCode[] => {
  const codes: ErrorCode[] = [400, 401];
  if (row.auth !== 'none') codes.push(403);
  if (pathParamNames(row.path).length > 0) codes.push(404);
  if (timerMoves.has(id) || (row.method === 'POST' && row.auth !== 'none')) codes.push(409);
  if (row.body) codes.push(413);
  if (row.body === 'multipart') codes.push(415);
  codes.push(429, '5XX');
  return codes;
};

/**
 * A download answers the attachment's own content type, one of the plan's; the bytes are the
 * file's, so no schema (OpenAPI 3.1 describes raw content by its media type alone).
 */
const fileContent = Object.fromEntries(
  uploadRules.allowedExtensions.map((e) => [contentTypesByExtension[e], {}]),
) as NonNullable<Extract<RouteConfig['responses'][number], { content?: unknown }>['content']>;

const responsesOf = (id: string, row: EndpointDef): RouteConfig['responses'] => {
  const out: RouteConfig['responses'] = {};
  if (row.status === 204) out[204] = { description: 'Done; no body.' };
  else if (row.produces === 'binary')
    out[200] = {
      description: 'The file’s bytes, typed by the attachment’s `contentType`.',
      content: fileContent,
    };
  else
    out[200] = {
      description: 'Success envelope.',
      content: { 'application/json': { schema: row.data ? envelope(row.data) : emptyEnvelope } },
    };
  for (const code of errorStatusesOf(id, row)) {
    const ref = { $ref: `#/components/responses/${errorResponses[code][0]}` };
    out[code] =
      code === 401 && row.auth === 'none'
        ? {
            ...ref,
            description: 'Wrong credentials, or a refresh token unknown, expired or rotated.',
          }
        : ref;
  }
  return out;
};

// ---------------------------------------------------------------------------------------------
// Operations

const multipartSchema: JsonSchema = {
  type: 'object',
  required: ['files'],
  properties: {
    [uploadRules.field]: {
      type: 'array',
      minItems: 1,
      maxItems: uploadRules.maxFiles,
      items: { type: 'string', format: 'binary', contentMediaType: 'application/octet-stream' },
    },
  },
};

const uploadNote =
  `Up to ${uploadRules.maxFiles} non-empty files under the field \`${uploadRules.field}\`. ` +
  `Reference plan: at most ${uploadRules.maxFileBytes / 1024 / 1024} MiB a file (else 413), ` +
  `extensions ${uploadRules.allowedExtensions.join(', ')} (else 415). ` +
  'Nothing of a refused request is stored.';

const routeOf = (id: OperationId, row: EndpointDef): RouteConfig => {
  const { zodQuery, wire } = queryParams(id, row.query);
  const parameters: (Parameter | { $ref: string })[] = pathParamNames(row.path).map(pathParam);
  if (row.auth !== 'none') parameters.push({ $ref: '#/components/parameters/XOrgId' });
  if (row.method === 'POST') parameters.push({ $ref: '#/components/parameters/IdempotencyKey' });
  parameters.push(...wire);
  const body = row.body;
  return {
    method: row.method.toLowerCase() as RouteConfig['method'],
    path: row.path,
    operationId: id,
    tags: [row.tag],
    summary: row.summary,
    ...(body === 'multipart' ? { description: uploadNote } : {}),
    ...(row.auth === 'none' ? { security: [] } : {}),
    'x-source': row.source,
    parameters: parameters as RouteParameters,
    request: {
      ...(zodQuery ? { query: zodQuery } : {}),
      ...(body === 'multipart'
        ? {
            body: {
              required: true,
              content: { 'multipart/form-data': { schema: multipartSchema as RawSchema } },
            },
          }
        : body
          ? { body: { required: true, content: { 'application/json': { schema: body } } } }
          : {}),
    },
    responses: responsesOf(id, row),
  };
};

const tagDescriptions: Record<Tag, string> = {
  Auth: 'Tokens (contract: the spec names the operations without paths).',
  'Personal Tasks': 'Tasks that belong to no project.',
  'Personal Subtasks': 'Subtasks of personal tasks.',
  Spaces: 'Spaces, which contain projects.',
  Projects: 'Projects of a space.',
  'Project Tasks': 'Tasks of a project.',
  'Project Subtasks': 'Subtasks of project tasks.',
  'Tasks Checklist': 'Checklist items of tasks and subtasks, ordered by position.',
  'Task Attachments': 'Files on tasks and subtasks.',
  'Project Attachments': 'Files on projects.',
  'Notifications and Mentions': 'Notifications of the calling user.',
  'Task Timer': 'Timers, time ranges, manual time and timesheets.',
  'Task Comments': 'Comments of a task (read only).',
  'Bulk Export': 'Cursor-paged export of everything, with tombstones, for sync.',
};

const apiDescription = `HTTP/JSON interface of the multi-tenant work-management service.

Every operation except the two token operations needs \`Authorization: Bearer <access token>\`
and \`X-Org-Id\` (integer): all data access is scoped to that organization. Successful
answers use the envelope \`{success, message, code, data?, timestamp}\`; failures answer
\`ApiError\`. Paths marked \`x-source: contract\` are fixed by the client/server contract where
the specification shows none.

**Idempotency-Key** (the reference server's extension): every POST honours an optional
\`Idempotency-Key\` header. A retry with the same key, by the same user in the same
organization, answers the first request's result instead of acting twice.`;

/** The whole document: paths for every row of the endpoint table, named components. */
export const buildOpenApiDocument = (): OpenApiDocument =>
  withComponentNames(() => {
    const registry = new OpenAPIRegistry();
    registry.registerComponent('securitySchemes', 'bearerAuth', {
      type: 'http',
      scheme: 'bearer',
      description: 'The access token of POST /v1/auth/token or /v1/auth/refresh.',
    });
    registry.registerComponent('parameters', 'XOrgId', {
      name: 'X-Org-Id',
      in: 'header',
      required: true,
      description: 'The organization the call acts in; one the user belongs to (else 403).',
      schema: { ...int64, minimum: 1 },
    });
    registry.registerComponent('parameters', 'IdempotencyKey', {
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      description:
        'Reference server extension: a retried POST with the same key answers the first result.',
      schema: { type: 'string', minLength: 1, maxLength: 255 },
    });
    for (const [name, description] of Object.values(errorResponses)) {
      registry.registerComponent('responses', name, {
        description,
        ...(name === 'TooManyRequests'
          ? {
              headers: {
                'Retry-After': {
                  description: 'Seconds to wait before retrying.',
                  schema: { type: 'integer', minimum: 0 },
                },
              },
            }
          : {}),
        content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
      });
    }
    for (const [id, row] of Object.entries(endpoints) as [OperationId, EndpointDef][]) {
      registry.registerPath(routeOf(id, row));
    }
    // ApiError is only reached through the raw response components: generate it explicitly.
    const generator = new OpenApiGeneratorV31(
      [...registry.definitions, { type: 'schema', schema: apiError }],
      {
        unionPreferredType: 'anyOf',
      },
    );
    const doc = generator.generateDocument({
      openapi: '3.1.0',
      info: { title: 'Work-Management API', version: '1.0.0', description: apiDescription },
      servers: [
        {
          url: '{base_url}',
          description: 'The service (base address without /v1).',
          variables: { base_url: { default: 'http://127.0.0.1:8080' } },
        },
      ],
      security: [{ bearerAuth: [] }],
      tags: tags.map((name) => ({ name, description: tagDescriptions[name] })),
    });
    dropNullFromQueryParameters(doc);
    nullableRefsAsAnyOf(doc);
    return doc;
  });
