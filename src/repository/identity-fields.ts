/**
 * The members of the files that name a repository and its collections (repository.json,
 * collection.json), declared once: lint checks them and gives the description as its hint, and the
 * editor schemas (editor-schemas/) say the same to an editor.
 */
import { RELEASE_PATTERN } from '../release/release.js';
import { VARIABLE_PATTERN } from '../template/placeholder.js';
import { API_VERSION_PATTERN, KIND_PATTERN, NAME_PATTERN, RESOURCE_API_VERSION_PATTERN } from './file-grammar.js';

export interface IdentityField {
  name: string;
  /** A string member's form; every string member is non-empty. */
  pattern?: RegExp;
  /** A member that may be left out, and is then true or false. */
  flag?: boolean;
  description: string;
}

export type IdentityFile = 'repository' | 'collection' | 'shared';

const nameField = (of: string): IdentityField => ({
  name: 'name',
  pattern: NAME_PATTERN,
  description: `The ${of}'s name, the same as its folder: lowercase letters, digits and "-".`,
});

export const IDENTITY_FIELDS: Record<IdentityFile, IdentityField[]> = {
  repository: [
    nameField('repository'),
    {
      name: 'vendor',
      pattern: NAME_PATTERN,
      description:
        'The publisher: a path segment of the exec paths (/apis/repos/<vendor>/…), lowercase letters, digits and "-", e.g. "facetform".',
    },
    {
      name: 'apiVersion',
      pattern: API_VERSION_PATTERN,
      description: 'The API version path segment, e.g. "v1"; a new one only for a change that breaks callers.',
    },
    {
      name: 'release',
      pattern: RELEASE_PATTERN,
      description:
        'The release the build makes, semver, e.g. "1.1.0": raise the patch for a fix, the minor for an addition. A released version never changes.',
    },
    { name: 'description', description: 'One sentence saying what the repository holds.' },
  ],
  collection: [
    nameField('collection'),
    {
      name: 'variable',
      pattern: VARIABLE_PATTERN,
      description:
        'The template variable its placeholders read, e.g. "__SVC_ID__": two underscores, capitals, digits or "_", two underscores; unique in the repository.',
    },
    { name: 'kind', pattern: KIND_PATTERN, description: 'The rendered kind, e.g. "Service".' },
    {
      name: 'apiVersion',
      pattern: RESOURCE_API_VERSION_PATTERN,
      description: 'The rendered apiVersion, e.g. "v1" or "networking.k8s.io/v1".',
    },
    { name: 'description', description: 'One sentence saying what the collection renders.' },
    {
      name: 'untyped',
      flag: true,
      description:
        'true only for a kind that neither Kubernetes nor a CRD in crds/ defines: it is then rendered without a schema and its answers are not checked.',
    },
  ],
  shared: [
    nameField('shared folder'),
    {
      name: 'variable',
      pattern: VARIABLE_PATTERN,
      description:
        'The neutral variable its sections\' placeholders read, e.g. "__POD__"; each collection that mounts them reads its own variable there.',
    },
    { name: 'description', description: 'One sentence saying what the shared sections write.' },
  ],
};
