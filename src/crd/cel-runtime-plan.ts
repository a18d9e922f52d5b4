/**
 * @bufbuild/cel's plan() with every node charging its cost (cel-runtime-cost.ts): its planner and
 * the few modules plan() uses, taken from the CommonJS build cel-library.ts loads, by path, since
 * the package does not export them; the planned nodes are instrumented before the first run.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { CelInput } from '@bufbuild/cel';
import { celLibrary } from './cel-library.js';
import { COST_LIMIT_EXCEEDED, type CostTracker, instrument, STOP, tracking } from './cel-runtime-cost.js';

type Internals = {
  Planner: new (
    funcs: unknown,
    registry: unknown,
    namespace: unknown,
  ) => { plan(expr: unknown): { eval(ctx: unknown): unknown; id: number } };
  withEvalContext: (context: unknown, next: { id: number; eval(ctx: unknown): unknown }) => { eval(ctx: unknown): unknown };
  unwrapAny: (value: unknown) => unknown;
  ObjectActivation: new (data: Record<string, CelInput>) => unknown;
};
let internals: Internals | undefined;

/** The modules behind @bufbuild/cel's plan(), from the same CommonJS build cel-library.ts loads. */
function loadInternals(): Internals {
  if (internals === undefined) {
    const require = createRequire(import.meta.url);
    const dist = path.dirname(require.resolve('@bufbuild/cel'));
    const load = (name: string) => require(path.join(dist, name)) as Record<string, unknown>;
    internals = {
      Planner: load('planner.js').Planner as Internals['Planner'],
      withEvalContext: load('eval.js').withEvalContext as Internals['withEvalContext'],
      unwrapAny: load('value.js').unwrapAny as Internals['unwrapAny'],
      ObjectActivation: load('activation.js').ObjectActivation as Internals['ObjectActivation'],
    };
  }
  return internals;
}

/** A program that counts its cost on the tracker it is given. */
export type TrackedProgram = (bindings: Record<string, CelInput>, tracker?: CostTracker) => unknown;

const planners = new WeakMap<object, InstanceType<Internals['Planner']>>();

/** Plans a parsed expression as @bufbuild/cel's plan() does, each node charging its cost. */
export function planTracked(parsed: { expr: unknown }): TrackedProgram {
  const { env, cel } = celLibrary();
  const { Planner, withEvalContext, unwrapAny, ObjectActivation } = loadInternals();
  let planner = planners.get(env);
  if (planner === undefined) planners.set(env, (planner = new Planner(env.funcs, env.registry, env.namespace)));
  const root = planner.plan(parsed.expr);
  instrument(root, new Set());
  const program = withEvalContext(
    { registry: env.registry },
    {
      id: root.id,
      eval(ctx) {
        const value = root.eval(ctx);
        return cel.isCelError(value) ? value : unwrapAny(value);
      },
    },
  );
  return (bindings, tracker) => {
    try {
      return tracking(tracker, () => program.eval(new ObjectActivation(bindings)));
    } catch (error) {
      if (error === STOP) return new Error(COST_LIMIT_EXCEEDED);
      return cel.celError(error, root.id);
    }
  };
}
