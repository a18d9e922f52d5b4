/**
 * A Kubernetes kind as JSON Schema: what kube-types.ts generates and kind-schema-cache.ts keeps, in
 * a module of its own so that both, and every floor above, read the shape without the generator.
 */
import type { JsonObject } from '../util/json.js';

export type Schema = JsonObject;

export interface KindSchema {
  kind: string;
  apiVersion: string;
  /** `#/definitions/<name>` targets reachable from the kind. */
  definitions: Record<string, Schema>;
}
