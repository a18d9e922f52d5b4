/** Moved to src/request/resolve.ts; kept for src/lint/rules/kubernetes.ts until its import says so. */
export { lookup } from '../request/resolve.js';
