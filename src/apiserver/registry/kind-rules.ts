/**
 * What the API server runs for one kind on create, beyond its OpenAPI schema: the defaults its
 * versioned type gets, and the hand-written validation of the kind (pkg/apis/<group>/validation),
 * object metadata included. One module per kind, in its API group's folder, exports one of these.
 */
import type { Fields } from '../golang/values.js';
import type { FieldError } from '../apimachinery/field-error.js';

export interface KindRules {
  /** Namespaced kinds get the request's namespace; cluster-scoped ones have theirs cleared. */
  namespaced: boolean;
  /**
   * SetDefaults_<Kind> and conversion to the internal type: the defaulted manifest. Only the top
   * level and metadata are the create step's copies; anything deeper is copied before it is written
   * (copyOnWrite), since the answer stays as rendered.
   */
  defaults?(manifest: Fields): Fields;
  /** The registry strategy's Validate on the defaulted copy. */
  validate(manifest: Fields): FieldError[];
}
