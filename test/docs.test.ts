/**
 * The documentation (README.md and docs/*.md) cannot go stale unseen: README stays short, every
 * link and path it names exists, it carries no internal history, and the facts it lists (settings,
 * routes, problem types, metrics, the CLI's usage and exit codes, the examples) are checked against
 * what the product does. The collection tables and the curl list are generated: see
 * test/readme-collections.test.ts.
 */
import { execFile, spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { portedKinds } from '../src/apiserver/kinds.js';
import { SETTING } from '../src/server/settings/all.js';
import { settingsTable } from '../src/server/settings/text.js';
import { repositoriesIn, ROOT } from './helpers/repos.js';
import { KEY, startTestServer, type TestServer } from './helpers/server.js';

const BIN = path.join(ROOT, 'bin/facetform.js');
const read = (file: string) => readFileSync(path.join(ROOT, file), 'utf8');
const DOCS = readdirSync(path.join(ROOT, 'docs'))
  .filter((file) => file.endsWith('.md'))
  .sort()
  .map((file) => `docs/${file}`);
const PAGES = ['README.md', ...DOCS];

/** The text of a Markdown page with its fenced code blocks blanked (lines kept, so nothing in them counts as a heading or link). */
function prose(text: string): string {
  let fenced = false;
  return text
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

/** GitHub's anchor of one heading: lower case, punctuation dropped, spaces as hyphens. */
const slugOf = (heading: string) =>
  heading
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s_-]/gu, '')
    .replace(/\s/g, '-');

/** GitHub's anchor of a heading: lower case, punctuation dropped, spaces as hyphens; a repeated one gets -1, -2, … */
function anchorsOf(text: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const [, heading] of prose(text).matchAll(/^#{1,6} (.+)$/gm)) {
    const slug = slugOf(heading!);
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The section of `text` under the heading `heading` (e.g. "## Settings"), up to the next heading of its level or above. */
function section(text: string, heading: string): string {
  const level = heading.indexOf(' ');
  const start = text.indexOf(`\n${heading}\n`);
  if (start < 0) throw new Error(`no "${heading}" heading`);
  const rest = text.slice(start + heading.length + 2);
  const end = rest.search(new RegExp(`^#{1,${level}} `, 'm'));
  return end < 0 ? rest : rest.slice(0, end);
}

/** The rows of the first Markdown table in `text`, each as its cells (header and rule left out). */
function tableRows(text: string): string[][] {
  const lines = text.split('\n');
  const first = lines.findIndex((line) => line.startsWith('|'));
  const rows: string[][] = [];
  for (const line of lines.slice(first + 2)) {
    if (!line.startsWith('|')) break;
    rows.push(
      line
        .slice(1, -1)
        .split(/(?<!\\)\|/)
        .map((cell) => cell.trim()),
    );
  }
  return rows;
}

const codeSpans = (text: string) => [...text.matchAll(/`([^`]+)`/g)].map(([, span]) => span!);

/** The first fenced block of `lang` in `text`, without its fences. */
function fencedBlock(text: string, lang: string): string {
  const block = new RegExp('^```' + lang + '\\n([\\s\\S]*?)^```', 'm').exec(text);
  if (block === null) throw new Error(`no \`\`\`${lang} block`);
  return block[1]!;
}

/** Every .ts file under src/, wherever it has moved to. */
function sourceFiles(dir = path.join(ROOT, 'src')): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const file = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(file);
    return entry.name.endsWith('.ts') ? [file] : [];
  });
}

describe('README.md', () => {
  it('has at most 300 lines', () => {
    expect(read('README.md').split('\n').length).toBeLessThanOrEqual(300);
  });

  it("shows the request body of docs/authoring.md's example, which a hand-checked golden renders", () => {
    const example = JSON.parse(fencedBlock(section(read('docs/authoring.md'), '## Examples'), 'json')) as Record<string, unknown>;
    delete example.$description;
    expect(JSON.parse(fencedBlock(section(read('README.md'), '## One example, end to end'), 'json'))).toEqual(example);
  });
});

describe('links and paths', () => {
  it.each(PAGES)('%s: every relative link leads to a file, and to a heading there when it names one', (page) => {
    const broken: string[] = [];
    const text = prose(read(page));
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue; // https:, mailto:
      const [file, anchor] = target!.split('#') as [string, string | undefined];
      const resolved = file === '' ? path.join(ROOT, page) : path.resolve(path.dirname(path.join(ROOT, page)), file);
      if (!existsSync(resolved)) {
        broken.push(`${target}: no file ${path.relative(ROOT, resolved)}`);
        continue;
      }
      if (anchor !== undefined && !(statSync(resolved).isFile() && anchorsOf(readFileSync(resolved, 'utf8')).has(anchor)))
        broken.push(`${target}: no heading #${anchor} in ${path.relative(ROOT, resolved)}`);
    }
    expect(broken).toEqual([]);
  });

  it.each(PAGES)('%s: every path of this repository it names in code exists', (page) => {
    const missing = codeSpans(prose(read(page)))
      .filter((span) => /^(src|test|scripts|deploy|gitops|examples|repos|docs|bin)\//.test(span) && !/[<>*…{}$\s]/.test(span))
      // A collection's examples/<name>.json is a path within the collection's folder, not this repository's.
      .filter((span) => !/^examples\/[^/]+\.json$/.test(span))
      .map((span) => span.replace(/[.,:;]$/, ''))
      .filter((span) => !existsSync(path.join(ROOT, span)));
    expect(missing).toEqual([]);
  });

  it.each(PAGES)('%s: tells no internal history', (page) => {
    const text = read(page).toLowerCase();
    for (const word of ['issue ', 'design card', "the seed's"]) expect(text, word).not.toContain(word);
  });
});

describe('comments in deploy/, gitops/, examples/ and the Dockerfile', () => {
  const files = [
    'Dockerfile',
    ...['deploy', 'gitops', 'examples'].flatMap((folder) =>
      readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
        .filter((file) => /\.(ya?ml|sh)$|Dockerfile$/.test(file))
        .map((file) => `${folder}/${file}`),
    ),
  ];

  it('point at pages, headings and paths of this repository that exist', () => {
    const broken: string[] = [];
    const hasHeading = (page: string, anchor: string) => existsSync(path.join(ROOT, page)) && anchorsOf(read(page)).has(anchor);
    for (const file of files) {
      for (const [number, line] of read(file).split('\n').entries()) {
        const comment = /^\s*#(.*)$/.exec(line)?.[1];
        if (comment === undefined) continue;
        const where = `${file}:${number + 1}`;
        // A page and heading by link (docs/releases.md#releases-through-a-registry) or by name (README, "Quick start").
        for (const [, page, anchor] of comment.matchAll(/\b((?:docs\/[\w-]+|README)\.md)(?:#([\w-]+))?/g))
          if (!existsSync(path.join(ROOT, page!)) || (anchor !== undefined && !hasHeading(page!, anchor)))
            broken.push(`${where}: ${page}${anchor === undefined ? '' : `#${anchor}`}`);
        for (const [, page, heading] of comment.matchAll(/\b(README|docs\/[\w-]+\.md), "([^"]+)"/g)) {
          const file = page === 'README' ? 'README.md' : page!;
          if (!hasHeading(file, slugOf(heading!))) broken.push(`${where}: no heading "${heading}" in ${file}`);
        }
        for (const [named] of comment.matchAll(/\b(?:src|test|scripts|deploy|gitops|examples|repos|docs|bin)\/[\w./-]*\w/g))
          // A collection's examples/<name>.json is a path within the collection's folder, not this repository's.
          if (!/^examples\/[^/]+\.json$/.test(named) && !existsSync(path.join(ROOT, named))) broken.push(`${where}: no path ${named}`);
      }
    }
    expect(files).toContain('deploy/deployment.yaml');
    expect(broken).toEqual([]);
  });
});

describe("docs/server.md's settings table", () => {
  const rows = tableRows(section(read('docs/server.md'), '## Settings'));
  const documented = new Map(rows.flatMap(([names, fallback]) => codeSpans(names!).map((name) => [name, fallback!] as const)));

  // Variables facetform reads that are not settings of the server, each documented on its page.
  const ELSEWHERE: Record<string, string> = {
    SOURCE_DATE_EPOCH: 'docs/authoring.md',
    FACETFORM_CACHE_DIR: 'docs/authoring.md',
    DOCKER_CONFIG: 'docs/releases.md',
    ARGOCD_APP_SOURCE_PATH: 'docs/gitops.md',
  };
  /** Every environment variable the code under src/ reads by name (env.X, env['X'], a setting read with its helper `(env, 'X'`), besides the declared settings. */
  const readBySource = new Set(
    sourceFiles().flatMap((file) =>
      [
        ...readFileSync(file, 'utf8').matchAll(/\benv(?:\.([A-Z][A-Z0-9_]+)\b|\[['"]([A-Z][A-Z0-9_]+)['"]\])|\(env, '([A-Z][A-Z0-9_]+)'/g),
      ].map((match) => (match[1] ?? match[2] ?? match[3])!),
    ),
  );

  it('names every variable the server reads, and no other', () => {
    const declared = Object.values(SETTING).map((setting) => setting.name);
    const settings = [...new Set([...declared, ...readBySource])].filter((name) => !Object.hasOwn(ELSEWHERE, name));
    expect([...documented.keys()].sort()).toEqual(settings.sort());
  });

  it("is the table the settings' declarations make (npm run readme:collections writes it)", () => {
    expect(section(read('docs/server.md'), '## Settings')).toContain(settingsTable());
  });

  it.each(Object.entries(ELSEWHERE))('documents %s, which is not a setting of the server, in %s', (name, page) => {
    expect(readBySource.has(name), `${name} is no longer read: drop it from this test`).toBe(true);
    expect(read(page)).toContain(`\`${name}\``);
  });
});

describe("docs/authoring.md's kinds judged as the API server judges them", () => {
  it('lists the kinds src/apiserver/kinds.ts registers, by group, and no other', () => {
    const listed = [
      ...section(read('docs/authoring.md'), '### Kinds judged as the API server judges them').matchAll(/^- (.+?): (.+)$/gm),
    ].flatMap(([, group, kinds]) => {
      // "core (`v1`)" is the core group, '' in the registry.
      const name = group!.startsWith('core') ? '' : group!.replaceAll('`', '');
      return kinds!.split(', ').map((kind) => `${name}/${kind}`);
    });
    expect(listed.sort()).toEqual(
      portedKinds()
        .map(({ group, kind }) => `${group}/${kind}`)
        .sort(),
    );
  });
});

describe('the command line', () => {
  const run = (args: string[]) => spawnSync(process.execPath, [BIN, ...args], { cwd: ROOT, encoding: 'utf8' });

  it('README shows the usage `facetform help` prints', () => {
    const help = run(['help']);
    expect(help.status).toBe(0);
    expect(fencedBlock(section(read('README.md'), '## Command line'), 'text')).toBe(help.stdout);
  });

  const exitCodes = tableRows(section(read('README.md'), '### Exit codes')).map(([code, , example]) => ({
    code: Number(code),
    example: codeSpans(example!)[0]!,
  }));

  it("README's exit codes are the ones the CLI has", () => {
    // The codes commands return, their errors carry (CliError's default and each one given), and request-file runs end with.
    const codes = new Set<number>();
    for (const file of sourceFiles()) {
      const text = readFileSync(file, 'utf8');
      for (const [, code] of text.matchAll(/exitCode\s*[:=]\s*(\d+)/g)) codes.add(Number(code));
      for (const [, code] of text.matchAll(/process\.exit\((\d+)\)/g)) codes.add(Number(code));
      if (!/\/cli\/|-command\.ts$/.test(file)) continue;
      for (const [, code, other] of text.matchAll(/\breturn\s+(?:[^;?\n]*\?\s*)?(\d+)(?:\s*:\s*(\d+))?\s*;/g)) {
        codes.add(Number(code));
        if (other !== undefined) codes.add(Number(other));
      }
      for (const [, code] of text.matchAll(/new CliError\([^;]*?,\s*(\d+)\s*\)\s*;/g)) codes.add(Number(code));
    }
    expect(exitCodes.map(({ code }) => code).sort()).toEqual([...codes].sort());
  });

  it.each(exitCodes)("exits $code for README's example of it", ({ code, example }) => {
    expect(example).toMatch(/^facetform /);
    const ran = run(example.split(' ').slice(1));
    expect(ran.status, ran.stdout + ran.stderr).toBe(code);
  });
});

describe('docs/server.md against a running server', () => {
  let server: TestServer;
  let openapi: { paths: Record<string, Record<string, unknown>> };
  beforeAll(async () => {
    server = await startTestServer();
    openapi = (await (await server.request('/openapi.json')).json()) as typeof openapi;
  });
  afterAll(() => server.close());

  const page = read('docs/server.md');
  /** The routes of the table, as [method, path segments]; `…/collections` is the collections path. */
  const documented = tableRows(section(page, '## Routes')).flatMap(([routes]) =>
    codeSpans(routes!).map((route) => {
      const [method, where] = route.split(' ') as [string, string];
      const full = where.replace(/^…\/collections/, '/apis/repos/facetform/<repository>/v1/resources/collections');
      return { route, method: method.toLowerCase(), segments: full.split('/').slice(1) };
    }),
  );
  const variable = (segment: string) => /^[<{].*[>}]$/.test(segment);
  /** Whether two paths can name the same request: each segment equal or a variable on either side; `<path>` takes the rest. */
  const unify = (a: string[], b: string[]): boolean => {
    if (a[0] === '<path>') return b.length > 0;
    if (a.length === 0 || b.length === 0) return a.length === b.length;
    return (a[0] === b[0] || variable(a[0]!) || variable(b[0]!)) && unify(a.slice(1), b.slice(1));
  };

  it('lists every route of the OpenAPI document', () => {
    const missing = Object.entries(openapi.paths).flatMap(([where, operations]) =>
      Object.keys(operations)
        .filter((method) => !documented.some((route) => route.method === method && unify(route.segments, where.split('/').slice(1))))
        .map((method) => `${method.toUpperCase()} ${where}`),
    );
    expect(missing).toEqual([]);
  });

  it('lists only routes the server has', async () => {
    const outside: string[] = [];
    for (const route of documented) {
      const operations = Object.entries(openapi.paths).filter(([where]) => unify(route.segments, where.split('/').slice(1)));
      if (operations.some(([, methods]) => Object.hasOwn(methods, route.method))) continue;
      // Not in the OpenAPI document: the console's pages answer as they are; /dev/events is facetform dev's own.
      if (route.route === 'GET /dev/events') {
        expect(sourceFiles().some((file) => readFileSync(file, 'utf8').includes("'/dev/events'"))).toBe(true);
        continue;
      }
      const answer = await server.request('/' + route.segments.join('/'));
      if (answer.status !== 200) outside.push(`${route.route}: ${answer.status}`);
    }
    expect(outside).toEqual([]);
  });

  it('lists every problem type the server answers with, and no other', () => {
    const answered = [...new Set([...JSON.stringify(openapi).matchAll(/\/problems\/([a-z-]+)/g)].map(([, type]) => type!))];
    const listed = [...new Set(tableRows(section(page, '## Errors')).flatMap(([, types]) => codeSpans(types!)))];
    expect(listed.sort()).toEqual(answered.sort());
  });

  it('lists every metric the server defines, and names no other', () => {
    const defined = new Set(
      sourceFiles().flatMap((file) => [...readFileSync(file, 'utf8').matchAll(/'(facetform_[a-z_]+[a-z])'/g)].map(([, name]) => name!)),
    );
    const listed = tableRows(section(page, '## Metrics')).flatMap(([names]) => codeSpans(names!).map((name) => name.replace(/\{.*$/, '')));
    expect(listed.sort()).toEqual([...defined].sort());
    const named = PAGES.flatMap((file) => [...read(file).matchAll(/\bfacetform_[a-z_]*[a-z]\b(?!_\*)/g)].map(([name]) => name));
    expect([...new Set(named)].filter((name) => !defined.has(name))).toEqual([]);
  });
});

describe("README's examples, run against a server", () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  /** Runs shell lines as README shows them, at the test server, with kubectl standing in: `apply -f -` prints what it was given. */
  async function sh(lines: string): Promise<string> {
    const kubectl = 'kubectl() { if [ "$*" = "apply -f -" ]; then cat; echo "---"; fi; }';
    const script = `${kubectl}\n${lines.replaceAll('http://localhost:8790', server.url)}`;
    const { stdout } = await promisify(execFile)('bash', ['-euo', 'pipefail', '-c', script], {
      cwd: ROOT,
      env: { PATH: process.env.PATH, API_KEY: KEY },
    });
    return stdout;
  }

  it('the example end to end answers the manifest README shows', async () => {
    const text = section(read('README.md'), '## One example, end to end');
    const [exported, ...command] = fencedBlock(text, 'sh').split('\n');
    expect(exported).toMatch(/^export API_KEY=/);
    expect(command.join('\n')).toMatch(/\| kubectl apply -f -\n$/);
    expect(await sh(command.join('\n'))).toBe(fencedBlock(text, 'yaml') + '---\n');
  });

  it('the curl list renders the seed example of every collection', async () => {
    const manifests = parseAllDocuments(await sh(fencedBlock(section(read('README.md'), '## One curl per collection'), 'sh')))
      .map((document) => document.toJS() as { kind?: string } | null)
      .filter((manifest) => manifest !== null);
    const kinds = repositoriesIn().flatMap((repository) =>
      repository.collections.map(
        (collection) => (JSON.parse(read(`repos/${repository.name}/${collection}/collection.json`)) as { kind: string }).kind,
      ),
    );
    expect(manifests.map((manifest) => manifest.kind).sort()).toEqual(kinds.sort());
  });
});
