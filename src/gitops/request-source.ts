/**
 * Where a request came from, and reading request files: each YAML or JSON document of a file that is
 * a facetform request (request-check.ts) is one; the file's other documents are not facetform's.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { Problem } from '../request/problems.js';
import { findUnrepresentable } from '../util/unrepresentable.js';
import { expandRequests } from './file-glob.js';
import { BATCH_REQUEST_KIND, REQUEST_FILE_API_VERSION, REQUEST_KIND } from '../request-file/request-file.js';
import { GROUP, isRequestDocument, misnamedRequest } from './request-check.js';

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

/**
 * The request documents of one file, and what kept others from being read. A file the user named
 * (a file or a pattern, not a folder searched) must hold a request: one that holds none is a typo
 * that would otherwise render nothing and say nothing.
 */
export function readRequestFile(base: string, file: string, named = false): { sources: RequestSource[]; problems: FileProblem[] } {
  let text: string;
  try {
    text = readFileSync(path.resolve(base, file), 'utf8');
  } catch (error) {
    return { sources: [], problems: [{ file, pointer: '', detail: `cannot be read: ${(error as NodeJS.ErrnoException).code ?? (error as Error).message}` }] };
  }
  const sources: RequestSource[] = [];
  const problems: FileProblem[] = [];
  const none = () => (named && sources.length === 0 && problems.length === 0 ? [{ file, pointer: '', detail: `holds no facetform request (apiVersion ${REQUEST_FILE_API_VERSION}, ` +
`kind ${REQUEST_KIND} or ${BATCH_REQUEST_KIND}); name only request ` +
`files in requests` }] : problems);
  // Folders hold other YAML too (kustomizations, Helm templates): only a file that may hold a request is parsed.
  if (!text.includes(`${GROUP}/`) && !/Request/i.test(text)) return { sources, problems: none() };
  parseAllDocuments(text, { uniqueKeys: true, prettyErrors: true }).forEach((parsed, index) => {
    if (parsed.errors.length > 0) {
      problems.push({ file, pointer: '', detail: `is not YAML (document ${index + 1}): ${yamlErrorText(parsed.errors[0]!.message)}` });
      return;
    }
    let document: unknown;
    try {
      document = parsed.toJS();
    } catch (error) {
      // Aliases that expand past the parser's limit, or nesting deeper than the stack.
      problems.push({ file, pointer: '', detail: `is not YAML that can be read (document ${index + 1}): ${(error as Error).message.split('\n')[0]}` });
      return;
    }
    const misnamed = misnamedRequest(document);
    if (misnamed !== undefined) problems.push({ file, ...misnamed });
    if (!isRequestDocument(document)) return;
    // As the server and `facetform render` refuse them: no manifest could carry such a value.
    const unrepresentable = findUnrepresentable(document);
    if (unrepresentable !== undefined) problems.push({ file, ...unrepresentable });
    else sources.push({ file, index, document });
  });
  return { sources, problems: none() };
}

/** The first line of a YAML error, without the trailing "at line 3, column 4:" that points at a quote of the text it leaves out. */
const yamlErrorText = (message: string): string => message.split('\n')[0]!.replace(/:$/, '');

/** The request documents of the files `entries` name (file-glob.ts), each file once, in the order named. */
export function readRequestEntries(base: string, entries: string[]): { sources: RequestSource[]; problems: FileProblem[] } {
  const sources: RequestSource[] = [];
  const problems: FileProblem[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const expanded = expandRequests(base, entry);
    if ('problem' in expanded) {
      problems.push({ file: entry, pointer: '', detail: expanded.problem });
      continue;
    }
    if (expanded.files.length === 0) problems.push({ file: entry, pointer: '', detail: `names no file below ${base}: give a file, a folder or a pattern ` +
`such as requests/*.yaml, relative to the folder the command runs ` +
`in` });
    for (const file of expanded.files) {
      if (seen.has(file)) continue;
      seen.add(file);
      const read = readRequestFile(base, file, !expanded.folder);
      sources.push(...read.sources);
      problems.push(...read.problems);
    }
  }
  return { sources, problems };
}
