import type { Router } from '../http/route';
import { registerAuthRoutes } from './auth';

/** Every route module; the app checks that together they cover the endpoint table. */
export const routeModules: ((r: Router) => void)[] = [registerAuthRoutes];
