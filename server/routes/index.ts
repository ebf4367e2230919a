import type { Router } from '../http/route';
import { registerAttachmentRoutes } from './attachments';
import { registerAuthRoutes } from './auth';
import { registerBulkRoutes } from './bulk';
import { registerChecklistRoutes } from './checklists';
import { registerCommentRoutes } from './comments';
import { registerNotificationRoutes } from './notifications';
import { registerProjectTaskRoutes } from './project-tasks';
import { registerProjectRoutes } from './projects';
import { registerSpaceRoutes } from './spaces';
import { registerTaskRoutes } from './tasks';
import { registerTimerRoutes } from './timers';

/** Every route module; the app checks that together they cover the endpoint table. */
export const routeModules: ((r: Router) => void)[] = [
  registerAuthRoutes,
  registerChecklistRoutes,
  registerAttachmentRoutes,
  registerTimerRoutes,
  registerNotificationRoutes,
  registerSpaceRoutes,
  registerProjectRoutes,
  registerTaskRoutes,
  registerProjectTaskRoutes,
  registerCommentRoutes,
  registerBulkRoutes,
];
