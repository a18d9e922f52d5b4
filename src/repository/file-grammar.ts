/**
 * The grammar of a repository's files: names, versions and kinds in repository.json and
 * collection.json, and the members a section may not use as its own. Lint checks files against it
 * and the editor schemas (editor-schemas/repository-format-schemas.ts) say it.
 */
export const NAME_PATTERN = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;
export const API_VERSION_PATTERN = /^v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$/;
export const KIND_PATTERN = /^[A-Z][A-Za-z0-9]*$/;
export const RESOURCE_API_VERSION_PATTERN = /^([a-z0-9]([-a-z0-9.]*[a-z0-9])?\/)?v[1-9][0-9]*((alpha|beta)[1-9][0-9]*)?$/;

/** Section members that are not content: they describe it. */
export const RESERVED_MEMBERS = new Set(['$description', '$values']);
/** Member names a JavaScript object could mistake for its prototype's. */
export const FORBIDDEN_NAMES = new Set(['__proto__', 'constructor', 'prototype']);
