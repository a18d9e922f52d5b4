/** `#/definitions/<name>` references, as ts-json-schema-generator writes them: the name URI-encoded. */
const DEFINITIONS = '#/definitions/';

/** The definition a local `$ref` names, or undefined for any other reference. */
export function definitionName(ref: string): string | undefined {
  return ref.startsWith(DEFINITIONS) ? decodeURIComponent(ref.slice(DEFINITIONS.length)) : undefined;
}

export const definitionRef = (name: string): string => DEFINITIONS + name;
