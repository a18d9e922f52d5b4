/**
 * JSON Schemas of the files authors keep in a template repository (docs/authoring.md, "Files of a
 * repository"): repository.json, collection.json and section files, for editors. The fields,
 * patterns and reserved names are the lint's own, so an editor refuses what lint refuses; lint stays
 * the judge of what a schema cannot say (placeholders, conflicts, Kubernetes types).
 */
import { FORBIDDEN_NAMES, RESERVED_MEMBERS } from '../repository/file-grammar.js';
import { IDENTITY_FIELDS, type IdentityFile } from '../repository/identity-fields.js';
import { FACET_PATTERN, MASTER_FACET } from '../collection/facet.js';
import { MOUNT_POINT_PATTERN, SHARED_MEMBER } from '../collection/mount.js';
import type { Schema } from '../kubernetes/kind-schema.js';

const patterned = (pattern: RegExp, description: string): Schema => ({ type: 'string', pattern: pattern.source, description });
// Lint refuses an empty or blank string.
const sentence = (description: string): Schema => ({ type: 'string', pattern: '\\S', description });
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The schema of an identity file (repository.json, collection.json): a closed object of its fields, its name the folder's. */
function identityFile(of: IdentityFile, title: string, description: string): Schema {
  const fields = IDENTITY_FIELDS[of];
  const properties = Object.fromEntries(
    fields.map((field): [string, Schema] => [
      field.name,
      field.flag
        ? { type: 'boolean', description: field.description }
        : field.pattern === undefined
          ? sentence(field.description)
          : patterned(field.pattern, field.description),
    ]),
  );
  const required = fields.filter((field) => !field.flag).map((field) => field.name);
  return { title, description, type: 'object', required, properties, additionalProperties: false };
}

export const REPOSITORY_SCHEMA: Schema = identityFile(
  'repository',
  'facetform repository.json',
  'The identity of a template repository: repos/<repository>/repository.json.',
);

const collectionIdentity = identityFile(
  'collection',
  'facetform collection.json',
  'One collection of a template repository, rendering one kind: repos/<repository>/<collection>/collection.json.',
);
const sharedName = (IDENTITY_FIELDS.shared.find((field) => field.name === 'name')?.pattern ?? /^.+$/) as RegExp;

export const COLLECTION_SCHEMA: Schema = {
  ...collectionIdentity,
  properties: {
    ...(collectionIdentity.properties as Record<string, Schema>),
    [SHARED_MEMBER]: {
      type: 'array',
      description: "The repository's shared sections this collection uses as its own (shared/<name>/), each mounted at a member path.",
      items: {
        type: 'object',
        required: ['name', 'at'],
        properties: {
          name: patterned(sharedName, 'A shared folder of the repository: shared/<name>/.'),
          at: patterned(MOUNT_POINT_PATTERN, 'Where its sections are written, e.g. "spec.template.spec"; "" for the root.'),
        },
        additionalProperties: false,
      },
    },
  },
};

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
