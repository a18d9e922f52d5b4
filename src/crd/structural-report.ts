/** How a structural rule reports: a path under the schema, Kubernetes' message and a fix, as a problem pointing into the CRD file. */
import { toPointer } from '../util/json.js';
import type { CrdProblem } from './crd-problem.js';

export type SchemaNode = Record<string, unknown>;
export type Add = (path: readonly (string | number)[], message: string, fix?: string) => void;

const FIX_STRUCTURAL =
  'make the schema structural: https://kubernetes.io/docs/tasks/extend-kubernetes/custom-resources/custom-resource-definitions/#specifying-a-structural-schema';

/** The problems found under the schema at `pointer`, and the `add` the rules report them with. */
export function problemCollector(pointer: string): { problems: CrdProblem[]; add: Add } {
  const problems: CrdProblem[] = [];
  const add = (path: readonly (string | number)[], message: string, fix = FIX_STRUCTURAL) =>
    problems.push({ pointer: pointer + toPointer(path), message: `${toPointer(path) || '/'}: ${message}`, fix });
  return { problems, add };
}
