/**
 * JSON Schemas of the files authors keep in a template repository (README.md, "Template
 * repositories"): repository.json, collection.json and section files, for editors. The patterns
 * and reserved names are the lint's own, so an editor refuses what lint refuses; lint stays the
 * judge of what a schema cannot say (placeholders, conflicts, Kubernetes types).
 */
import {
  API_VERSION_PATTERN,
  FORBIDDEN_NAMES,
  KIND_PATTERN,
  NAME_PATTERN,
  RESERVED_MEMBERS,
  RESOURCE_API_VERSION_PATTERN,
} from '../repository/file-grammar.js';
import { FACET_PATTERN, MASTER_FACET } from '../collection/facet.js';
import { RELEASE_PATTERN } from '../release/release.js';
import { VARIABLE_PATTERN } from '../template/placeholder.js';
import type { Schema } from '../kubernetes/kind-schema.js';

const patterned = (pattern: RegExp, description: string): Schema => ({ type: 'string', pattern: pattern.source, description });
// Lint refuses an empty or blank string.
const sentence = (description: string): Schema => ({ type: 'string', pattern: '\\S', description });
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

interface IdentityFile {
  /** What the file names: "repository" or "collection". */
  of: string;
  title: string;
  description: string;
  required: string[];
  properties: Record<string, Schema>;
}

/** The schema of an identity file (repository.json, collection.json): a closed object, its name the folder's. */
function identityFile({ of, title, description, required, properties }: IdentityFile): Schema {
  const name = patterned(NAME_PATTERN, `The ${of}'s name, the same as its folder: lowercase letters, digits and "-".`);
  const members = { required: ['name', ...required], properties: { name, ...properties } };
  return { title, description, type: 'object', ...members, additionalProperties: false };
}

export const REPOSITORY_SCHEMA: Schema = identityFile({
  of: 'repository',
  title: 'facetform repository.json',
  description: 'The identity of a template repository: repos/<repository>/repository.json.',
  required: ['vendor', 'apiVersion', 'release', 'description'],
  properties: {
    vendor: patterned(
      NAME_PATTERN,
      'The publisher: a path segment of the exec paths (/apis/repos/<vendor>/…), lowercase letters, digits and "-", e.g. "facetform".',
    ),
    apiVersion: patterned(API_VERSION_PATTERN, 'The API version path segment, e.g. "v1"; a new one only for a change that breaks callers.'),
    release: patterned(
      RELEASE_PATTERN,
      'The release the build makes, semver, e.g. "1.1.0": raise the patch for a fix, the minor for an addition. A released version never changes.',
    ),
    description: sentence('One sentence saying what the repository holds.'),
  },
});

export const COLLECTION_SCHEMA: Schema = identityFile({
  of: 'collection',
  title: 'facetform collection.json',
  description: 'One collection of a template repository, rendering one kind: repos/<repository>/<collection>/collection.json.',
  required: ['variable', 'kind', 'apiVersion', 'description'],
  properties: {
    variable: patterned(
      VARIABLE_PATTERN,
      'The template variable its placeholders read, e.g. "__SVC_ID__": two underscores, capitals, digits or "_", two underscores; unique in the repository.',
    ),
    kind: patterned(KIND_PATTERN, 'The rendered kind, e.g. "Service".'),
    apiVersion: patterned(RESOURCE_API_VERSION_PATTERN, 'The rendered apiVersion, e.g. "v1" or "networking.k8s.io/v1".'),
    description: sentence('One sentence saying what the collection renders.'),
    untyped: {
      type: 'boolean',
      description:
        'true only for a kind that neither Kubernetes nor a CRD in crds/ defines: it is then rendered without a schema and its answers are not checked.',
    },
  },
});

const unknownMetadata = `^\\$(?!(${[...RESERVED_MEMBERS].map((name) => escapeRegExp(name.slice(1))).join('|')})$)`;
/** Member names lint refuses anywhere in a section's content. */
const refusedName: Schema = { anyOf: [{ enum: [...FORBIDDEN_NAMES] }, { pattern: '\\{\\{' }] };

export const SECTION_SCHEMA: Schema = {
  title: 'facetform section',
  description:
    'A section file: repos/<repository>/<collection>/sections/<section>.json. "facets" says which ' +
    'requests include it; members starting with "$" are for authors; every other member is manifest ' +
    'content, with "{{ __VAR__.path }}" placeholders.',
  type: 'object',
  required: ['facets'],
  properties: {
    facets: {
      type: 'array',
      minItems: 1,
      uniqueItems: true,
      items: patterned(FACET_PATTERN, `"${MASTER_FACET}" (always rendered) or "addon:<name>" (lowercase letters, digits and "-").`),
      description:
        `Which requests include this section: "${MASTER_FACET}" for the ` +
        `core, or e.g. ["addon:spec", "addon:ports"] for a feature. A ` +
        `request adds every section that shares a facet with it.`,
    },
    $description: sentence('For authors and docs: one sentence saying what the section adds. Never rendered.'),
    $values: {
      type: 'object',
      description:
        'Refines the generated input schema, keyed by the placeholder path without the variable (e.g. "spec.type"). Never rendered.',
      additionalProperties: {
        type: 'object',
        properties: {
          schema: {
            type: 'object',
            description: 'A JSON Schema (draft-07) merged over the generated one; it stands alone (no $ref to other schemas).',
          },
          required: { type: 'boolean', description: 'true: a request that includes this section must give the value.' },
        },
        additionalProperties: false,
      },
    },
  },
  // Members starting with "$" are the authors' own: only the known ones.
  patternProperties: { [unknownMetadata]: false },
  propertyNames: { not: refusedName },
  additionalProperties: { $ref: '#/definitions/content' },
  definitions: {
    content: {
      description: 'Manifest content: member names are never templated and never reach into JavaScript prototypes.',
      type: ['object', 'array', 'string', 'number', 'boolean', 'null'],
      propertyNames: { not: refusedName },
      additionalProperties: { $ref: '#/definitions/content' },
      items: { $ref: '#/definitions/content' },
    },
  },
};
