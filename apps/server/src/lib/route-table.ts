import type { FastifyContextConfig, FastifyInstance } from 'fastify';

/** One registered route, as the route-table test walks them (DESIGN §10). */
export interface RouteEntry {
  method: string;
  url: string;
  config: FastifyContextConfig;
  websocket: boolean;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Every route registered after `collectRoutes` (HEAD twins included). */
    routeTable: RouteEntry[];
  }
}

/**
 * Records every route the app registers, so that a test can check each one
 * for 401, 403 and another club's id without a hand-kept list. Call before
 * any route is registered.
 */
export function collectRoutes(app: FastifyInstance): void {
  const table: RouteEntry[] = [];
  app.decorate('routeTable', table);
  app.addHook('onRoute', (r) => {
    for (const method of [r.method].flat()) {
      table.push({
        method,
        url: r.url,
        config: (r.config ?? {}) as FastifyContextConfig,
        websocket: r.websocket === true,
      });
    }
  });
}
