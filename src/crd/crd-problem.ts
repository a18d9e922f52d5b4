/**
 * One problem of a CRD file: where (a JSON Pointer into the file), what, and how to fix it. A module
 * of its own: the CEL and structural checks report it, and must not import crd.ts, which reads a
 * CRD through the kind check that runs them.
 */
export interface CrdProblem {
  pointer: string;
  message: string;
  fix: string;
}
