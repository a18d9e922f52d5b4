/** File names of a template repository (docs/authoring.md, "Files of a repository"). */
export const REPOSITORY_FILE = 'repository.json';
export const COLLECTION_FILE = 'collection.json';
export const SECTIONS_DIR = 'sections';
export const EXAMPLES_DIR = 'examples';
export const CRDS_DIR = 'crds';
/** Sections written once and mounted by several collections: `shared/<name>/shared.json` and its `sections/`. */
export const SHARED_DIR = 'shared';
export const SHARED_FILE = 'shared.json';
