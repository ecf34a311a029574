/**
 * Enforces the caller part of ROUTE_RULES before any handler runs: the route Hono matched is looked
 * up in the table and each of its caller rules checked (499 without a token where one is needed, 403
 * without the role or privilege). A route with no entry is refused with 403 and logged, so a route
 * added without a rule fails closed; the route test and the authorization matrix find it first.
 */
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { hasPrivilege, sameUser } from '../lib/access/roles.js';
import { forbidden } from '../lib/errors.js';
import { requireUser } from './auth.js';
import type { AppEnv } from './env.js';
import { requireAdmin, requirePrivilege, requireSelfOrAdmin } from './portal/access.js';
import { type CallerRule, ROUTE_RULES, type RouteRule } from './privileges.js';

const key = (method: string, path: string) => `${method} ${path}`;

/** The table by method and path, each pair once. */
export function ruleIndex(rules: readonly RouteRule[] = ROUTE_RULES): Map<string, RouteRule> {
  const index = new Map<string, RouteRule>();
  for (const rule of rules) {
    for (const method of rule.methods) {
      for (const path of rule.paths) {
        if (index.has(key(method, path))) throw new Error(`Two privilege rules for ${key(method, path)}`);
        index.set(key(method, path), rule);
      }
    }
  }
  return index;
}

interface HandlerRoute {
  method: string;
  path: string;
  /** The path parameters as the handler will see them. */
  params: Record<string, string>;
}

/** The handler route a request matched (middleware are mounted for ALL methods), without BASE_PATH. */
export function handlerRoute(c: Context, basePath: string): HandlerRoute | undefined {
  const routes = matchedRoutes(c);
  const index = routes.findIndex((r) => r.method !== 'ALL');
  const route = routes[index];
  if (!route) return undefined;
  const path =
    basePath && route.path.startsWith(basePath) ? route.path.slice(basePath.length) || '/' : route.path;
  // A middleware's c.req.param() reads its own route's parameters; the handler's are read at its index.
  const own = c.req.routeIndex;
  c.req.routeIndex = index;
  const params = c.req.param() as Record<string, string>;
  c.req.routeIndex = own;
  return { method: route.method, path, params };
}

function check(c: Context<AppEnv>, rule: CallerRule, params: Record<string, string>): void {
  const pathUser = params.username ?? params.user ?? '';
  if (rule === 'anyone') return;
  if (rule === 'signedIn') {
    requireUser(c);
  } else if (rule === 'admin') {
    requireAdmin(c);
  } else if (rule === 'selfOrAdmin') {
    requireSelfOrAdmin(c, pathUser);
  } else if (rule === 'self') {
    if (!sameUser(requireUser(c).username, pathUser)) throw forbidden();
  } else if ('privilege' in rule) {
    requirePrivilege(c, rule.privilege, undefined, [`This operation needs the privilege ${rule.privilege}.`]);
  } else if (!rule.anyPrivilege.some((p) => hasPrivilege(requireUser(c), p))) {
    throw forbidden(undefined, [
      `This operation needs the privileges of the Publisher or Administrator role (${rule.anyPrivilege.join(', ')}).`,
    ]);
  }
}

export function privilegeGuard(
  basePath: string,
  rules: readonly RouteRule[] = ROUTE_RULES,
): MiddlewareHandler<AppEnv> {
  const index = ruleIndex(rules);
  return async (c, next) => {
    const route = handlerRoute(c, basePath);
    if (route) {
      const rule = index.get(key(route.method, route.path));
      if (!rule) {
        c.get('deps').log.error('route without a privilege rule', { method: route.method, path: route.path });
        throw forbidden(undefined, ['This operation has no privilege rule.']);
      }
      for (const one of rule.caller) check(c, one, route.params);
    }
    await next();
  };
}
