/**
 * The route table (src/server/routes/route-table.ts) is what the running server answers and what its
 * OpenAPI document describes: every operation of the document is a documented route with the same
 * query parameters, every documented route has an operation, and each route answers as its access says.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLIENT_ERRORS, PROBLEM_TYPES } from '../src/server/problem.js';
import { isPublic } from '../src/server/public-paths.js';
import { OPENABLE_ROUTES, openApiPath, type Route, ROUTES } from '../src/server/routes/route-table.js';
import { startTestServer, type TestServer } from './helpers/server.js';

let server: TestServer;
let operations: Array<{ method: string; path: string; query: string[] }>;

beforeAll(async () => {
  server = await startTestServer();
  const document = (await (await server.request('/openapi.json')).json()) as {
    paths: Record<string, Record<string, { parameters?: Array<{ in: string; name: string }> }>>;
  };
  operations = Object.entries(document.paths).flatMap(([path, methods]) =>
    Object.entries(methods).map(([method, operation]) => ({
      method: method.toUpperCase(),
      path,
      query: (operation.parameters ?? []).filter((p) => p.in === 'query').map((p) => p.name),
    })),
  );
});
afterAll(() => server?.close());

const routes = Object.entries(ROUTES as Record<string, Route>);
const documented = routes.filter(([, route]) => route.documented);

/** Whether an OpenAPI path (concrete, or with `{name}` segments) is one of the route's paths. */
function matches(route: Route, path: string): boolean {
  const pattern = openApiPath(route.path)
    .split('/')
    .map((segment) => (segment.startsWith('{') ? '[^/]+' : segment.startsWith('*') ? '.+' : segment.replace(/[.]/g, '\\.')))
    .join('/');
  return new RegExp(`^${pattern}$`).test(path);
}

describe('the route table', () => {
  it('names every operation of the OpenAPI document, with the query parameters it takes', () => {
    expect(operations.length).toBeGreaterThan(0);
    for (const operation of operations) {
      const found = documented.filter(([, route]) => route.method === operation.method && matches(route, operation.path));
      expect(
        found.map(([name]) => name),
        `${operation.method} ${operation.path}`,
      ).toHaveLength(1);
      const [, route] = found[0]!;
      expect([...operation.query].sort(), `${operation.method} ${operation.path}`).toEqual(
        route.query === 'any' ? [] : [...route.query].sort(),
      );
    }
  });

  it.each(documented)('%s is in the OpenAPI document', (_, route) => {
    expect(operations.some((operation) => operation.method === route.method && matches(route, operation.path))).toBe(true);
  });

  it.each(routes)('%s answers without a key only when public', (_, route) => {
    const path = route.path.replace(/:[A-Za-z]+/g, 'x').replace(/\*[A-Za-z]+/, 'x.css');
    expect(isPublic(path)).toBe(route.access === 'public');
  });

  it('refuses a query parameter a route does not take, naming the ones it takes', async () => {
    const response = await server.request(`${ROUTES.vendors.path}?release=1.0.0`);
    expect(response.status).toBe(400);
    expect(((await response.json()) as { detail: string }).detail).toContain('this route takes none');
  });

  it('opens what OPEN_ROUTES names, but never a path with a dot segment under it', async () => {
    const open = await startTestServer({ state: { openRoutes: Object.keys(OPENABLE_ROUTES) } });
    try {
      const keyless = { headers: { 'X-APIKEY': '' } };
      expect((await open.request(ROUTES.metrics.path, keyless)).status).toBe(200);
      expect((await open.request('/schemas/..%2fapis%2frepos', keyless)).status).toBe(401);
    } finally {
      await open.close();
    }
  });
});

describe("the problem types' declarations", () => {
  it.each(Object.entries(CLIENT_ERRORS))('hold the answer to a client error (%s)', (_, answer) => {
    const declared = PROBLEM_TYPES[answer.type] as {
      status: number;
      title: string;
      titles?: readonly string[];
      statuses?: readonly number[];
    };
    expect([declared.status, ...(declared.statuses ?? [])]).toContain(answer.status);
    expect([declared.title, ...(declared.titles ?? [])]).toContain(answer.title);
  });
});
