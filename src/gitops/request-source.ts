/**
 * Where a request came from, and reading request files: each YAML or JSON document of a file that is
 * a facetform request (request-check.ts) is one; the file's other documents are not facetform's.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { Problem } from '../render/render-error.js';
import { findUnrepresentable } from '../util/unrepresentable.js';
import { expandRequests } from './file-glob.js';
import { GROUP, isRequestDocument } from './request-check.js';

export interface RequestSource {
  /** As the user wrote or kustomize gave it: relative to the kustomization or app folder. */
  file: string;
  /** The document's place in the file (0 for the first), when the file holds several. */
  index: number;
  document: Record<string, unknown>;
}

/** A file that cannot be read, or whose text is not YAML: the file's fault, with a pointer when there is one. */
export interface FileProblem extends Problem {
  file: string;
}

/** The request documents of one file, and what kept others from being read. */
export function readRequestFile(base: string, file: string): { sources: RequestSource[]; problems: FileProblem[] } {
  let text: string;
  try {
    text = readFileSync(path.resolve(base, file), 'utf8');
  } catch (error) {
    return { sources: [], problems: [{ file, pointer: '', detail: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }] };
  }
  const sources: RequestSource[] = [];
  const problems: FileProblem[] = [];
  // Folders hold other YAML too (kustomizations, Helm templates): only a file that names the group is read.
  if (!text.includes(`${GROUP}/`)) return { sources, problems };
  parseAllDocuments(text, { uniqueKeys: true, prettyErrors: true }).forEach((parsed, index) => {
    if (parsed.errors.length > 0) {
      problems.push({ file, pointer: '', detail: `is not YAML (document ${index + 1}): ${parsed.errors[0]!.message.split('\n')[0]}` });
      return;
    }
    const document = parsed.toJS() as unknown;
    if (!isRequestDocument(document)) return;
    // As the server and `facetform render` refuse them: no manifest could carry such a value.
    const unrepresentable = findUnrepresentable(document);
    if (unrepresentable !== undefined) problems.push({ file, ...unrepresentable });
    else sources.push({ file, index, document });
  });
  return { sources, problems };
}

/** The request documents of the files `entries` name (file-glob.ts), each file once, in the order named. */
export function readRequestEntries(base: string, entries: string[]): { sources: RequestSource[]; problems: FileProblem[] } {
  const sources: RequestSource[] = [];
  const problems: FileProblem[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const files = expandRequests(base, entry);
    if (files.length === 0) problems.push({ file: entry, pointer: '', detail: `names no file below ${base}: give a file, a folder or a pattern such as requests/*.yaml, relative to the kustomization` });
    for (const file of files) {
      if (seen.has(file)) continue;
      seen.add(file);
      const read = readRequestFile(base, file);
      sources.push(...read.sources);
      problems.push(...read.problems);
    }
  }
  return { sources, problems };
}
