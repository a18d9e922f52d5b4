import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { compileRepositories } from '../src/compiler/compile.js';
import type { LintMessage } from '../src/lint/report.js';
import { DEMO_REPOS, removeFrom, repoCopy } from './helpers/repos.js';

const SECTIONS = 'demo-resources/settings/sections';
const EXAMPLES = 'demo-resources/settings/examples';

/** Lints a copy of the demo repository with `files` planted, and returns the messages. */
async function lintWith(files: Record<string, string>, prepare?: (dir: string) => void): Promise<LintMessage[]> {
  const dir = repoCopy(DEMO_REPOS, files);
  prepare?.(dir);
  const { report } = await compileRepositories(dir);
  return report.sorted().map((message) => ({ ...message, file: path.relative(dir, message.file) }));
}

/** test/fixtures/<name>'s files, planted at `at` in the demo repository's copy. */
function fixture(name: string, at: string): Record<string, string> {
  const folder = path.join(import.meta.dirname, 'fixtures', name);
  const files: Record<string, string> = {};
  for (const file of readdirSync(folder, { recursive: true, encoding: 'utf8' }))
    if (/\.(json|yaml)$/.test(file)) files[`${at}/${file.split(path.sep).join('/')}`] = readFileSync(path.join(folder, file), 'utf8');
  return files;
}

const errors = (messages: LintMessage[]) => messages.filter((message) => message.severity === 'error');

describe('lint', () => {
  it('passes the demo repository without messages', async () => {
    expect(await lintWith({})).toEqual([]);
  });

  it('reports a section value no answer can carry: a lone surrogate, a number beyond a double', async () => {
    const messages = errors(
      await lintWith({
        [`${SECTIONS}/odd.json`]:
          '{\n  "facets": ["addon:odd"],\n  "data": {\n    "a": "x\\ud800",\n    "b": "{{ __SET_ID__.b }}"\n  },\n  "$values": { "b": { "schema": { "maximum": 1e400 } } }\n}\n',
      }),
    );
    expect(messages.map((message) => [message.file, message.line])).toEqual([[`${SECTIONS}/odd.json`, 4]]);
    expect(messages[0]!.message).toContain('the string at /data/a holds a lone UTF-16 surrogate');
  });

  it('reports a file that is not valid JSON with its position', async () => {
    const messages = errors(await lintWith({ [`${SECTIONS}/broken.json`]: '{\n  "facets": ["addon:x"],\n  "data": {\n' }));
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({
      file: `${SECTIONS}/broken.json`,
      line: 4,
      column: 1,
      message: 'invalid JSON: expected "}" to close the object',
    });
  });

  it('reports a trailing comma at its line and column', async () => {
    const [message] = errors(await lintWith({ [`${SECTIONS}/comma.json`]: '{\n  "facets": ["addon:x"],\n  "immutable": true,\n}\n' }));
    expect(message).toMatchObject({ file: `${SECTIONS}/comma.json`, line: 4, column: 1 });
    expect(message!.message).toContain('invalid JSON');
  });

  it('reports a section without facets', async () => {
    const [message] = errors(await lintWith({ [`${SECTIONS}/nofacets.json`]: '{\n  "immutable": "{{ __SET_ID__.immutable }}"\n}\n' }));
    expect(message).toMatchObject({ file: `${SECTIONS}/nofacets.json`, line: 1, message: 'section has no "facets"' });
    expect(message!.hint).toContain('"facets": ["master"]');
  });

  it('reports empty facets', async () => {
    const [message] = errors(await lintWith({ [`${SECTIONS}/empty.json`]: '{\n  "facets": [],\n  "immutable": true\n}\n' }));
    expect(message).toMatchObject({ line: 2, column: 3, message: '"facets" is empty, so nothing can select this section' });
  });

  it('reports facets that are not strings', async () => {
    const [message] = errors(await lintWith({ [`${SECTIONS}/numbers.json`]: '{\n  "facets": ["addon:x", 7],\n  "immutable": true\n}\n' }));
    expect(message).toMatchObject({ line: 2, column: 25, message: 'facet 7 is not a string' });
  });

  it('reports a facet of the wrong form and suggests the right one', async () => {
    const [message] = errors(
      await lintWith({ [`${SECTIONS}/upper.json`]: '{\n  "facets": ["Addon:Immutable"],\n  "immutable": true\n}\n' }),
    );
    expect(message).toMatchObject({
      file: `${SECTIONS}/upper.json`,
      line: 2,
      column: 14,
      message: 'facet "Addon:Immutable" is not "master" or "addon:<name>"',
    });
    expect(message!.hint).toContain('did you mean "addon:immutable"?');
  });

  it('reports an unclosed placeholder at the column of its braces', async () => {
    const [message] = errors(
      await lintWith({
        [`${SECTIONS}/unclosed.json`]: '{\n  "facets": ["addon:immutable"],\n  "immutable": "{{ __SET_ID__.immutable }"\n}\n',
      }),
    );
    expect(message).toMatchObject({ file: `${SECTIONS}/unclosed.json`, line: 3, column: 17 });
    expect(message!.message).toBe('malformed placeholder: placeholder opened with "{{" is not closed with "}}"');
  });

  it('reports a placeholder whose path has a bad segment', async () => {
    const [message] = errors(
      await lintWith({
        [`${SECTIONS}/space.json`]: '{\n  "facets": ["addon:immutable"],\n  "immutable": "{{ __SET_ID__.im mutable }}"\n}\n',
      }),
    );
    expect(message!.message).toBe('malformed placeholder: "__SET_ID__.im mutable" has an invalid path segment "im mutable"');
  });

  it('reports a placeholder without a variable, and one with an empty alternative', async () => {
    const messages = errors(
      await lintWith({
        [`${SECTIONS}/novar.json`]: '{\n  "facets": ["addon:a"],\n  "immutable": "{{ immutable }}"\n}\n',
        [`${SECTIONS}/noalt.json`]: '{\n  "facets": ["addon:b"],\n  "binaryData": "{{ __SET_ID__.bin ?? }}"\n}\n',
      }),
    );
    expect(messages.map((m) => [m.file, m.line, m.message])).toEqual([
      [`${SECTIONS}/noalt.json`, 3, 'malformed placeholder: "__SET_ID__.bin ??" has an empty alternative around "??"'],
      [`${SECTIONS}/novar.json`, 3, 'malformed placeholder: "immutable" does not start with a template variable'],
    ]);
  });

  it("reports a variable that is not the collection's", async () => {
    const [message] = errors(
      await lintWith({
        [`${SECTIONS}/othervar.json`]: '{\n  "facets": ["addon:immutable"],\n  "immutable": "{{ __CM_ID__.immutable }}"\n}\n',
      }),
    );
    expect(message).toMatchObject({
      line: 3,
      column: 3,
      message: "placeholder reads __CM_ID__.immutable, but this collection's variable is __SET_ID__",
    });
    expect(message!.hint).toBe('write {{ __SET_ID__.immutable }}');
  });

  it('reports a collection without a master section', async () => {
    const messages = errors(await lintWith({}, (dir) => removeFrom(dir, `${SECTIONS}/core.json`)));
    expect(messages[0]).toMatchObject({
      file: 'demo-resources/settings/collection.json',
      line: 1,
      message: 'collection settings has no master section',
    });
  });

  it('reports a master section whose kind or apiVersion differ from the collection, or that lacks metadata', async () => {
    const messages = errors(
      await lintWith({
        [`${SECTIONS}/core.json`]: '{\n  "facets": ["master"],\n  "apiVersion": "v2",\n  "kind": "Secret"\n}\n',
      }),
    );
    expect(messages.map((m) => [m.line, m.message])).toEqual([
      [1, 'master section lacks "metadata"'],
      [3, 'master section has apiVersion "v2", but the collection declares "v1"'],
      [4, 'master section has kind "Secret", but the collection declares "ConfigMap"'],
    ]);
  });

  it('reports two sections writing the same member, naming both files', async () => {
    const messages = errors(
      await lintWith({ [`${SECTIONS}/more-data.json`]: '{\n  "facets": ["addon:more"],\n  "data": "{{ __SET_ID__.more }}"\n}\n' }),
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ file: `${SECTIONS}/more-data.json`, line: 3, column: 3 });
    expect(messages[0]!.message).toMatch(/^data is also written by .*demo-resources\/settings\/sections\/data\.json:4:3$/);
  });

  it('lets a section write members into an object another section fills with a whole placeholder', async () => {
    const messages = await lintWith({
      [`${SECTIONS}/more-data.json`]: '{\n  "facets": ["addon:more"],\n  "data": {\n    "EXTRA": "1"\n  }\n}\n',
    });
    expect(errors(messages)).toEqual([]);
  });

  it('reports a section writing members into a member another section fills with text', async () => {
    const messages = errors(
      await lintWith({
        [`${SECTIONS}/text.json`]: '{\n  "facets": ["addon:more"],\n  "metadata2": "prefix-{{ __SET_ID__.a }}"\n}\n',
        [`${SECTIONS}/object.json`]: '{\n  "facets": ["addon:more"],\n  "metadata2": {\n    "b": "1"\n  }\n}\n',
      }),
    ).filter((message) => message.message.includes('also written'));
    expect(messages.map((message) => message.message)).toEqual([
      expect.stringMatching(/^metadata2 is also written by .*sections\/object\.json:3:3$/),
    ]);
  });

  it('lets two sections write members of the same object', async () => {
    const messages = await lintWith({
      [`${SECTIONS}/labels.json`]: '{\n  "facets": ["addon:data"],\n  "metadata2": {\n    "a": "{{ __SET_ID__.a }}"\n  }\n}\n',
      [`${SECTIONS}/labels2.json`]: '{\n  "facets": ["addon:data"],\n  "metadata2": {\n    "b": "{{ __SET_ID__.b }}"\n  }\n}\n',
    });
    expect(errors(messages)).toEqual([]);
  });

  it('reports an example that does not render, at the member to fix', async () => {
    const messages = errors(
      await lintWith({
        [`${EXAMPLES}/nameless.json`]:
          '{\n  "facets": ["addon:data"],\n  "values": {\n    "app": {\n      "data": { "A": "1" }\n    }\n  }\n}\n',
      }),
    );
    expect(messages.map((m) => [m.file, m.line, m.message])).toEqual([
      [`${EXAMPLES}/nameless.json`, 4, 'example does not render: /values/app/metadata is required'],
    ]);
  });

  it('reports an example whose facet does not exist', async () => {
    const [message] = errors(
      await lintWith({
        [`${EXAMPLES}/typo.json`]: '{\n  "facets": ["addon:dta"],\n  "values": { "app": { "metadata": { "name": "a" } } }\n}\n',
      }),
    );
    expect(message).toMatchObject({
      line: 2,
      message:
        'example does not render: /facets/0 "addon:dta" is not a facet of settings; its facets are addon:data, master; did you mean "addon:data"?',
    });
  });

  it('reports an example whose manifest Kubernetes refuses, at the example value it came from', async () => {
    const messages = errors(
      await lintWith({
        [`${SECTIONS}/binary.json`]: '{\n  "facets": ["addon:binary"],\n  "binaryData": { "blob": "{{ __SET_ID__.blob }}==" }\n}\n',
        [`${EXAMPLES}/blob.json`]:
          '{\n  "facets": ["addon:binary"],\n  "values": {\n    "app": { "metadata": { "name": "a" }, "blob": "not base64!" }\n  }\n}\n',
      }),
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ file: `${EXAMPLES}/blob.json`, line: 4 });
    expect(messages[0]!.message).toBe(
      'example does not render: /values/app/blob must be base64-encoded: Kubernetes refuses it at /binaryData/blob of the ConfigMap',
    );
  });

  it('reports text with a placeholder where Kubernetes wants a boolean, at the section line', async () => {
    const messages = errors(
      await lintWith({
        [`${SECTIONS}/immutable.json`]: '{\n  "facets": ["addon:immutable"],\n  "immutable": "{{ __SET_ID__.frozen }} please"\n}\n',
      }),
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toMatchObject({ file: `${SECTIONS}/immutable.json`, line: 3 });
    expect(messages[0]!.message).toContain('Kubernetes wants boolean at /immutable');
  });

  it('reports a $values refinement of a path no placeholder reads, and an invalid schema', async () => {
    const messages = errors(
      await lintWith({
        [`${SECTIONS}/data.json`]:
          '{\n  "facets": ["addon:data"],\n  "data": "{{ __SET_ID__.data }}",\n  "$values": {\n    "dta": { "schema": {} },\n    "data": { "schema": { "type": "map" } }\n  }\n}\n',
      }),
    );
    expect(messages.map((m) => [m.line, m.message.slice(0, 60).trim()])).toEqual([
      [5, '"$values" refines "dta", but no placeholder of this section'],
      [6, '"schema" is not a valid JSON Schema: data/type must be equal'],
    ]);
  });

  it('warns about unknown $-members and sections no example renders', async () => {
    const messages = await lintWith({
      [`${SECTIONS}/immutable.json`]:
        '{\n  "$note": "x",\n  "facets": ["addon:immutable"],\n  "immutable": "{{ __SET_ID__.immutable }}"\n}\n',
    });
    expect(messages.map((m) => [m.severity, m.line, m.message])).toEqual([
      ['warning', 2, 'unknown metadata member "$note" is ignored'],
      ['warning', 3, 'no example of settings renders section immutable'],
    ]);
  });

  it('reports member names that would reach into prototypes', async () => {
    const [message] = errors(
      await lintWith({ [`${SECTIONS}/proto.json`]: '{\n  "facets": ["addon:p"],\n  "data": {\n    "__proto__": "x"\n  }\n}\n' }),
    );
    expect(message).toMatchObject({ line: 4, message: 'member name "__proto__" is not allowed' });
  });

  it('reports declarations with missing or malformed members', async () => {
    const messages = errors(
      await lintWith({
        'demo-resources/repository.json':
          '{\n  "name": "demo",\n  "vendor": "facetform",\n  "apiVersion": "v1",\n  "release": "1.0",\n  "description": "x"\n}\n',
        'demo-resources/settings/collection.json':
          '{\n  "name": "settings",\n  "variable": "SET_ID",\n  "kind": "ConfigMap",\n  "apiVersion": "v1"\n}\n',
      }),
    );
    expect(messages.map((m) => [path.basename(m.file), m.line, m.message])).toEqual([
      ['repository.json', 2, 'name "demo" differs from the folder name "demo-resources"'],
      ['repository.json', 5, '"release" is "1.0", which is not of the expected form'],
      ['collection.json', 1, 'missing "description"'],
      ['collection.json', 3, '"variable" is "SET_ID", which is not of the expected form'],
    ]);
  });

  it('reports a $values schema that refers to definitions it does not have, without crashing', async () => {
    const messages = errors(
      await lintWith({
        [`${SECTIONS}/data.json`]:
          '{\n  "facets": ["addon:data"],\n  "data": "{{ __SET_ID__.data }}",\n  "$values": {\n    "data": { "schema": { "$ref": "#/definitions/Nope" } }\n  }\n}\n',
      }),
    );
    expect(messages.map((m) => [m.line, m.message.slice(0, 30)])).toEqual([[5, '"schema" cannot be used: can\'t']]);
  });

  it('still checks the shape of examples when a section has an error', async () => {
    const messages = errors(
      await lintWith({
        [`${SECTIONS}/bad.json`]: '{\n  "facets": ["Bad"],\n  "x": 1\n}\n',
        [`${EXAMPLES}/text.json`]: '"hello"\n',
        [`${EXAMPLES}/values.json`]: '{\n  "values": 5\n}\n',
      }),
    );
    expect(messages.map((m) => [path.basename(m.file), m.line, m.message])).toEqual([
      ['text.json', 1, 'example is not an exec request: / the request body must be a JSON object with facets, values and globalvars'],
      ['values.json', 2, 'example is not an exec request: /values must be an object mapping an input id to its input object'],
      ['bad.json', 2, 'facet "Bad" is not "master" or "addon:<name>"'],
    ]);
  });

  it('points at the right column in a string with escapes', async () => {
    const [message] = errors(
      await lintWith({ [`${SECTIONS}/escaped.json`]: '{\n  "facets": ["addon:e"],\n  "x": "\\u0041\\u0041\\n{{ __SET_ID__.x"\n}\n' }),
    );
    expect(message).toMatchObject({
      line: 3,
      column: 23,
      message: 'malformed placeholder: placeholder opened with "{{" is not closed with "}}"',
    });
  });

  it('reports a member named twice in one object', async () => {
    const [message] = errors(
      await lintWith({ [`${SECTIONS}/twice.json`]: '{\n  "facets": ["addon:t"],\n  "spec": { "a": 1 },\n  "spec": { "b": 2 }\n}\n' }),
    );
    expect(message).toMatchObject({ line: 4, column: 3, message: 'member "spec" appears twice in one object; JSON keeps only the last' });
  });

  it('reports placeholder paths through prototype names', async () => {
    const [message] = errors(
      await lintWith({ [`${SECTIONS}/proto-path.json`]: '{\n  "facets": ["addon:p"],\n  "x": "{{ __SET_ID__.spec.constructor }}"\n}\n' }),
    );
    expect(message).toMatchObject({ line: 3, message: 'placeholder path spec.constructor uses "constructor"' });
  });

  it('reports every problem of every file in one run', async () => {
    const messages = errors(
      await lintWith({
        [`${SECTIONS}/a.json`]: '{ "facets": [] ',
        [`${SECTIONS}/b.json`]: '{\n  "facets": ["addon:B"],\n  "x": 1\n}\n',
        [`${SECTIONS}/c.json`]: '{\n  "facets": ["addon:c"],\n  "x": "{{ nope }}"\n}\n',
      }),
    );
    expect(messages.map((m) => path.basename(m.file))).toEqual(['a.json', 'b.json', 'c.json']);
  });

  it('warns at a Deployment collection that no API-server rule runs on it, and at no ported kind or custom resource', async () => {
    // Named Web_1, its selector missing the template's labels: the build passes and nothing else is said.
    const messages = await lintWith({
      ...fixture('unported-kind', 'demo-resources'),
      ...fixture('custom-resource', 'demo-resources'),
      ...fixture('crds', 'demo-resources/crds'),
    });
    expect(errors(messages)).toEqual([]);
    expect(
      messages
        .filter((message) => message.message.includes('is not ported'))
        .map((message) => [message.file, message.line, message.message.split(':')[0]]),
    ).toEqual([['demo-resources/web/collection.json', 4, 'apps/v1 Deployment']]);
  });
});
