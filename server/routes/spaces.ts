import type { Router } from '../http/route';
import { createSpace, deleteSpace, getSpace, listSpaces, updateSpace } from '../store/spaces';

/** Spaces: org-wide, not paged (an org has a handful). Deleting one cascades (see store). */
export const registerSpaceRoutes = (r: Router) => {
  const { db } = r.deps;
  r.op('getAllSpaces', ({ ctx }) => listSpaces(db, ctx.orgId));
  r.op('createSpace', ({ body, ctx }) => getSpace(db, ctx.orgId, createSpace(db, ctx, body)));
  r.op('getSpaceById', ({ params, ctx }) => getSpace(db, ctx.orgId, params.spaceId));
  r.op('updateSpace', ({ params, body, ctx }) => {
    updateSpace(db, ctx, params.spaceId, body);
    return getSpace(db, ctx.orgId, params.spaceId);
  });
  r.op('deleteSpace', ({ params, ctx }) => {
    deleteSpace(db, r.deps.filesDir, ctx, params.spaceId);
    return {};
  });
};
