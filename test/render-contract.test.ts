/** CONTRACT §2–§4, one rule per test, on small in-memory collections. */
import { describe, expect, it } from 'vitest';
import { RenderError } from '../src/request/problems.js';
import { CollectionRenderPlan, type PlanSection } from '../src/render/render-plan.js';

function plan(sections: PlanSection[]): CollectionRenderPlan {
  return new CollectionRenderPlan({ collection: 'widget', variable: '__W_ID__', sections });
}

const master: PlanSection = {
  name: 'core',
  facets: ['master'],
  content: { apiVersion: 'v1', kind: 'Widget', metadata: '{{ __W_ID__.metadata }}' },
  required: ['/metadata'],
};
const section = (name: string, facets: string[], content: PlanSection['content'], required: string[] = []): PlanSection => ({
  name,
  facets,
  content,
  required,
});
const meta = { name: 'w' };

function renderError(run: () => unknown): RenderError {
  try {
    run();
  } catch (error) {
    if (error instanceof RenderError) return error;
    throw error;
  }
  throw new Error('expected a RenderError');
}

describe('§2 placeholders', () => {
  it('replaces a string that is exactly one placeholder by the value with its JSON type', () => {
    const p = plan([
      master,
      section('all', ['addon:all'], {
        o: '{{ __W_ID__.o }}',
        a: '{{ __W_ID__.a }}',
        n: '{{ __W_ID__.n }}',
        b: '{{ __W_ID__.b }}',
        s: '{{ __W_ID__.s }}',
        z: '{{__W_ID__.z}}',
      }),
    ]);
    const values = { w: { metadata: meta, o: { k: [1] }, a: [true, 'x'], n: 1.5, b: false, s: 'str', z: null } };
    expect(p.render({ facets: ['addon:all'], values })).toEqual({
      apiVersion: 'v1',
      kind: 'Widget',
      metadata: meta,
      o: { k: [1] },
      a: [true, 'x'],
      n: 1.5,
      b: false,
      s: 'str',
      z: null,
    });
  });

  it('interpolates strings, numbers and booleans inside a longer string', () => {
    const p = plan([
      master,
      section('url', ['addon:url'], { url: 'https://{{ __W_ID__.host }}:{{ __W_ID__.port }}/?tls={{ __W_ID__.tls }}' }),
    ]);
    expect(p.render({ facets: ['addon:url'], values: { w: { metadata: meta, host: 'example.com', port: 443, tls: true } } }).url).toBe(
      'https://example.com:443/?tls=true',
    );
  });

  it('refuses to interpolate an object, array or null, pointing at the value', () => {
    const p = plan([master, section('url', ['addon:url'], { url: 'host={{ __W_ID__.host }}' })]);
    for (const host of [{ a: 1 }, [1], null]) {
      const error = renderError(() => p.render({ facets: ['addon:url'], values: { w: { metadata: meta, host } } }));
      expect(error.problems).toEqual([
        { pointer: '/values/w/host', detail: 'must be a string, number or boolean: it is part of the text of /url in the manifest' },
      ]);
    }
  });

  it('takes the first defined alternative of ??', () => {
    const p = plan([master, section('p', ['addon:p'], { provisioner: '{{ __W_ID__.spec.provisioner ?? __W_ID__.provisioner }}' })]);
    expect(p.render({ facets: ['addon:p'], values: { w: { metadata: meta, provisioner: 'flat' } } }).provisioner).toBe('flat');
    expect(
      p.render({ facets: ['addon:p'], values: { w: { metadata: meta, spec: { provisioner: 'nested' }, provisioner: 'flat' } } })
        .provisioner,
    ).toBe('nested');
    // null is a value, so it is defined and wins.
    expect(
      p.render({ facets: ['addon:p'], values: { w: { metadata: meta, spec: { provisioner: null }, provisioner: 'flat' } } }).provisioner,
    ).toBeNull();
  });

  it('indexes arrays with a segment of digits', () => {
    const p = plan([master, section('first', ['addon:first'], { first: '{{ __W_ID__.items.0.name }}', second: '{{ __W_ID__.items.1 }}' })]);
    expect(p.render({ facets: ['addon:first'], values: { w: { metadata: meta, items: [{ name: 'a' }, 'b'] } } })).toMatchObject({
      first: 'a',
      second: 'b',
    });
  });

  it('outputs "{{" inside caller values literally, never evaluating it', () => {
    const p = plan([master, section('note', ['addon:note'], { note: '{{ __W_ID__.note }}', text: 'n={{ __W_ID__.note }}' })]);
    const note = '{{ __W_ID__.metadata }}';
    expect(p.render({ facets: ['addon:note'], values: { w: { metadata: meta, note } } })).toMatchObject({ note, text: `n=${note}` });
  });

  it('never templates member names', () => {
    const p = plan([master, section('odd', ['addon:odd'], { data: { '{{ __W_ID__.key }}': 'v' } })]);
    expect(p.render({ facets: ['addon:odd'], values: { w: { metadata: meta, key: 'k' } } }).data).toEqual({ '{{ __W_ID__.key }}': 'v' });
  });
});

describe('§3 resolving values', () => {
  const p = plan([master]);

  it('reads values[globalvars[VAR]]', () => {
    expect(
      p.render({ values: { a: { metadata: { name: 'a' } }, b: { metadata: { name: 'b' } } }, globalvars: { __W_ID__: 'b' } }).metadata,
    ).toEqual({ name: 'b' });
  });

  it('uses the only entry of values when globalvars has no entry for the variable', () => {
    expect(p.render({ values: { only: { metadata: { name: 'o' } } } }).metadata).toEqual({ name: 'o' });
  });

  it('is an error when globalvars has no entry and values has several', () => {
    const error = renderError(() => p.render({ values: { a: { metadata: meta }, b: { metadata: meta } } }));
    expect(error.status).toBe(422);
    expect(error.problems).toEqual([
      {
        pointer: '/globalvars',
        detail: 'has no entry for __W_ID__ and values has 2 entries (a, b): set globalvars.__W_ID__ to the one to use',
      },
    ]);
  });

  it('is an error when globalvars maps the variable to something other than a string, even an object that cannot become one', () => {
    for (const mapped of [1, null, ['a'], { toString: false }]) {
      const error = renderError(() => p.render({ values: { a: { metadata: meta } }, globalvars: { __W_ID__: mapped } }));
      expect(error.problems).toEqual([{ pointer: '/globalvars/__W_ID__', detail: 'must be a string naming a key of values' }]);
    }
  });

  it('reads own entries of globalvars and values only, even when Object.prototype or another prototype has the names', () => {
    const lacks = { pointer: '/globalvars/__W_ID__', detail: 'names "web", which values lacks; values has "a"' };
    const inherits = Object.assign(Object.create({ web: { metadata: { name: 'inherited' } } }), { a: { metadata: meta } });
    expect(renderError(() => p.render({ values: inherits, globalvars: { __W_ID__: 'web' } })).problems).toEqual([lacks]);
    const mapsInherited = Object.create({ __W_ID__: 'b' });
    expect(p.render({ values: { a: { metadata: meta } }, globalvars: mapsInherited }).metadata).toEqual(meta);
    for (const name of ['web', '__W_ID__']) {
      Object.defineProperty(Object.prototype, name, {
        value: name === 'web' ? { metadata: { name: 'polluted' } } : 'web',
        configurable: true,
      });
    }
    try {
      expect(renderError(() => p.render({ values: { a: { metadata: meta } }, globalvars: { __W_ID__: 'web' } })).problems).toEqual([lacks]);
      expect(p.render({ values: { a: { metadata: meta } }, globalvars: {} }).metadata).toEqual(meta);
    } finally {
      for (const name of ['web', '__W_ID__']) delete (Object.prototype as Record<string, unknown>)[name];
    }
  });

  it('is an error when globalvars names a key that values lacks', () => {
    const error = renderError(() => p.render({ values: { a: { metadata: meta } }, globalvars: { __W_ID__: 'web' } }));
    expect(error.problems).toEqual([{ pointer: '/globalvars/__W_ID__', detail: 'names "web", which values lacks; values has "a"' }]);
  });

  it('reads own properties only: __proto__, constructor and prototype never resolve to anything inherited', () => {
    const q = plan([
      master,
      section('x', ['addon:x'], {
        a: '{{ __W_ID__.constructor }}',
        b: '{{ __W_ID__.metadata.__proto__ }}',
        c: '{{ __W_ID__.items.length }}',
        d: '{{ __W_ID__.s.length }}',
        e: '{{ __W_ID__.f.prototype }}',
      }),
    ]);
    const out = q.render({ facets: ['addon:x'], values: { w: { metadata: meta, items: [1, 2], s: 'abc', f: {} } } });
    expect(out).toEqual({ apiVersion: 'v1', kind: 'Widget', metadata: meta });
  });

  it('reads own properties only when Object.prototype gains a member after the plan is compiled, or the values inherit from another object', () => {
    const q = plan([master, section('x', ['addon:x'], { a: '{{ __W_ID__.spec.inherited }}', b: '{{ __W_ID__.spec.own }}' })]);
    const request = { facets: ['addon:x'], values: { w: { metadata: meta, spec: { own: 1 } } } };
    expect(q.render(request)).toEqual({ apiVersion: 'v1', kind: 'Widget', metadata: meta, b: 1 });
    Object.defineProperty(Object.prototype, 'inherited', { value: 'polluted', configurable: true, writable: true });
    try {
      expect(q.render(request)).toEqual({ apiVersion: 'v1', kind: 'Widget', metadata: meta, b: 1 });
    } finally {
      delete (Object.prototype as Record<string, unknown>).inherited;
    }
    const spec = Object.assign(Object.create({ inherited: 'from a prototype', own: 'shadowed' }), { own: 2 });
    expect(q.render({ facets: ['addon:x'], values: { w: { metadata: meta, spec } } })).toEqual({
      apiVersion: 'v1',
      kind: 'Widget',
      metadata: meta,
      b: 2,
    });
  });

  it('reads each alternative of a placeholder in order, the later ones sharing the members read before them', () => {
    const q = plan([
      master,
      section('x', ['addon:x'], { a: '{{ __W_ID__.spec.first ?? __W_ID__.spec.second }}', b: '{{ __W_ID__.spec.second }}' }),
    ]);
    const out = q.render({ facets: ['addon:x'], values: { w: { metadata: meta, spec: { second: 'two' } } } });
    expect(out).toEqual({ apiVersion: 'v1', kind: 'Widget', metadata: meta, a: 'two', b: 'two' });
  });

  it('resolves an own "__proto__" member as plain data without touching any prototype', () => {
    const q = plan([master, section('x', ['addon:x'], { p: '{{ __W_ID__.__proto__ }}', q: '{{ __W_ID__.__proto__.polluted }}' })]);
    const values = JSON.parse('{"w": {"metadata": {"name": "w"}, "__proto__": {"polluted": "yes"}}}');
    const out = q.render({ facets: ['addon:x'], values });
    expect(out.q).toBe('yes');
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
    expect(JSON.parse(JSON.stringify(out)).p).toEqual({ polluted: 'yes' });
  });
});

describe('§4 facets, merge, missing values', () => {
  const p = plan([
    master,
    section('ports', ['addon:spec', 'addon:ports'], { spec: { ports: '{{ __W_ID__.spec.ports }}' } }),
    section('type', ['addon:spec', 'addon:type'], { spec: { type: '{{ __W_ID__.spec.type }}' } }),
    section('data', ['addon:data'], { data: '{{ __W_ID__.data }}' }),
  ]);
  const values = { w: { metadata: meta, spec: { ports: [80], type: 'T' }, data: { a: '1' } } };

  it('always includes master sections, and only them for absent or empty facets', () => {
    expect(p.render({ values })).toEqual({ apiVersion: 'v1', kind: 'Widget', metadata: meta });
    expect(p.render({ facets: [], values })).toEqual(p.render({ values }));
    expect(p.render({ facets: ['master'], values })).toEqual(p.render({ values }));
  });

  it('includes every section sharing a facet with the request', () => {
    expect(p.render({ facets: ['addon:spec'], values }).spec).toEqual({ ports: [80], type: 'T' });
    expect(p.render({ facets: ['addon:ports'], values }).spec).toEqual({ ports: [80] });
    expect(p.render({ facets: ['addon:type', 'addon:data'], values })).toEqual({
      apiVersion: 'v1',
      kind: 'Widget',
      metadata: meta,
      spec: { type: 'T' },
      data: { a: '1' },
    });
  });

  it('rejects a facet no section carries, naming the facets that exist', () => {
    const error = renderError(() => p.render({ facets: ['addon:ports', 'addon:prots'], values }));
    expect(error.problems).toEqual([
      {
        pointer: '/facets/1',
        detail:
          '"addon:prots" is not a facet of widget; its facets are addon:data, addon:ports, addon:spec, addon:type, master; did you mean "addon:ports"?',
      },
    ]);
  });

  it('merges master sections first, then the others in file order, with apiVersion, kind and metadata leading', () => {
    const q = plan([
      section('a-extra', ['addon:x'], { zeta: 1, spec: { b: 2 } }),
      { ...master, content: { spec: { a: 1 }, metadata: '{{ __W_ID__.metadata }}', kind: 'Widget', apiVersion: 'v1' } },
    ]);
    const out = q.render({ facets: ['addon:x'], values });
    expect(JSON.stringify(out)).toBe('{"apiVersion":"v1","kind":"Widget","metadata":{"name":"w"},"spec":{"a":1,"b":2},"zeta":1}');
  });

  describe('a whole placeholder and the objects other sections write into the same member', () => {
    const q = plan([
      master,
      section('managed', ['addon:managed'], {
        metadata: { annotations: { 'example.com/managed': 'yes' }, labels: { tier: '{{ __W_ID__.tier }}' } },
      }),
      section('data', ['addon:data'], { data: '{{ __W_ID__.data }}' }),
      section('more', ['addon:more'], { data: { EXTRA: '1' } }),
    ]);
    const render = (facets: string[], w: Record<string, unknown>) => q.render({ facets, values: { w } });

    it('merge, the values first and then the sections in file order', () => {
      const out = render(['addon:managed'], { metadata: { name: 'w', annotations: { a: 'b' } }, tier: 'web' });
      expect(JSON.stringify(out.metadata)).toBe('{"name":"w","annotations":{"a":"b","example.com/managed":"yes"},"labels":{"tier":"web"}}');
      expect(render(['addon:more', 'addon:data'], { metadata: meta, data: { A: 'a' } }).data).toEqual({ A: 'a', EXTRA: '1' });
    });

    it("keep the section's members when the placeholder has no value, and leave the values as they were", () => {
      expect(render(['addon:more'], { metadata: meta }).data).toEqual({ EXTRA: '1' });
      const data = { A: 'a' };
      render(['addon:more', 'addon:data'], { metadata: meta, data });
      expect(data).toEqual({ A: 'a' });
    });

    it('take a member the values repeat with the same value', () => {
      const metadata = { name: 'w', annotations: { 'example.com/managed': 'yes' } };
      expect(render(['addon:managed'], { metadata }).metadata).toEqual(metadata);
    });

    it('refuse a member the values give another value, at the member in the values', () => {
      const error = renderError(() => render(['addon:managed'], { metadata: { name: 'w', annotations: { 'example.com/managed': 'no' } } }));
      expect(error.problems).toEqual([
        {
          pointer: '/values/w/metadata/annotations/example.com~1managed',
          detail:
            'is "no", but a selected section writes "yes" at /metadata/annotations/example.com~1managed: leave it out of the values, or give the same',
        },
      ]);
    });

    it('point at the member of the values each side came from when both came from the values', () => {
      const r = plan([
        master,
        section('scrape', ['addon:scrape'], { metadata: { labels: { team: 'web' } } }),
        section('extra', ['addon:extra'], { metadata: { labels: '{{ __W_ID__.extraLabels }}' } }),
      ]);
      const refused = (w: Record<string, unknown>) =>
        renderError(() => r.render({ facets: ['addon:scrape', 'addon:extra'], values: { w } })).problems;
      expect(refused({ metadata: meta, extraLabels: { team: 'x' } })).toEqual([
        {
          pointer: '/values/w/extraLabels/team',
          detail: 'is "x", but a selected section writes "web" at /metadata/labels/team: leave it out of the values, or give the same',
        },
      ]);
      expect(refused({ metadata: { name: 'w', labels: { k: '1' } }, extraLabels: { k: '2' } })).toEqual([
        {
          pointer: '/values/w/extraLabels/k',
          detail:
            'is "2", but /values/w/metadata/labels/k of the values is "1", and both fill /metadata/labels/k: give one, or the same in both',
        },
      ]);
    });

    it('refuse a value that is not an object', () => {
      const error = renderError(() => render(['addon:more', 'addon:data'], { metadata: meta, data: ['A'] }));
      expect(error.problems).toEqual([
        { pointer: '/values/w/data', detail: 'must be an object: a selected section also writes members into /data' },
      ]);
    });
  });

  it('removes a member or array element whose placeholder has no value, and objects left empty', () => {
    const q = plan([
      master,
      section('x', ['addon:x'], {
        spec: { inner: { a: '{{ __W_ID__.a }}' }, list: ['{{ __W_ID__.b }}', 'kept', '{{ __W_ID__.c }}'], keep: {} },
      }),
    ]);
    expect(q.render({ facets: ['addon:x'], values: { w: { metadata: meta, c: 'c' } } }).spec).toEqual({ list: ['kept', 'c'], keep: {} });
    expect(q.render({ facets: ['addon:x'], values: { w: { metadata: meta } } }).spec).toEqual({ list: ['kept'], keep: {} });
  });

  it('keeps the manifest itself even when every member is removed', () => {
    const q = plan([section('core', ['master'], { metadata: '{{ __W_ID__.metadata }}' })]);
    expect(q.render({ values: { w: {} } })).toEqual({});
  });

  it('reports every missing required placeholder of the included sections in one answer', () => {
    const q = plan([
      {
        ...master,
        content: {
          ...master.content,
          spec: { names: { plural: '{{ __W_ID__.spec.names.plural }}', kind: '{{ __W_ID__.spec.names.kind }}' } },
        },
        required: ['/metadata', '/spec/names/plural', '/spec/names/kind'],
      },
      section('extra', ['addon:extra'], { extra: '{{ __W_ID__.extra ?? __W_ID__.spec.extra }}' }, ['/extra']),
    ]);
    const error = renderError(() => q.render({ facets: ['addon:extra'], values: { w: {} } }));
    expect(error.problems).toEqual([
      { pointer: '/values/w/metadata', detail: 'is required: it fills /metadata of the manifest' },
      { pointer: '/values/w/spec/names/plural', detail: 'is required: it fills /spec/names/plural of the manifest' },
      { pointer: '/values/w/spec/names/kind', detail: 'is required: it fills /spec/names/kind of the manifest' },
      { pointer: '/values/w/extra', detail: 'is required (or spec.extra): it fills /extra of the manifest' },
    ]);
    // A required placeholder of a section that is not included is not needed.
    expect(renderError(() => q.render({ values: { w: { metadata: meta } } })).problems.map((problem) => problem.pointer)).toEqual([
      '/values/w/spec/names/plural',
      '/values/w/spec/names/kind',
    ]);
  });

  it('remembers valid facet lists without ever letting an unknown facet through', () => {
    p.render({ facets: ['addon:ports', 'addon:type'], values });
    expect(() => p.render({ facets: ['addon:ports,addon:type'], values })).toThrow(RenderError);
    expect(() => p.render({ facets: ['addon:ports', 'addon:type', 'addon:bogus'], values })).toThrow(RenderError);
    expect(() => p.render({ facets: ['addon:ports', 'addon:typo'], values })).toThrow(RenderError);
    expect(p.render({ facets: ['addon:ports', 'addon:type'], values }).spec).toEqual({ ports: [80], type: 'T' });
  });

  it('selects anew when the facet list last rendered changes in place, or another list comes between', () => {
    const facets = ['addon:ports'];
    expect(p.render({ facets, values }).spec).toEqual({ ports: [80] });
    facets[0] = 'addon:type';
    expect(p.render({ facets, values }).spec).toEqual({ type: 'T' });
    facets[0] = 'addon:bogus';
    expect(() => p.render({ facets, values })).toThrow(RenderError);
    expect(p.render({ facets: ['addon:ports'], values }).spec).toEqual({ ports: [80] });
    expect(p.render({ facets: ['addon:ports', 'addon:type'], values }).spec).toEqual({ ports: [80], type: 'T' });
  });

  it('renders template text with quotes, backslashes, ${ and line separators literally', () => {
    const odd = 'a"b\\c`${x}`\u2028\u2029</script>';
    const q = plan([master, section('odd', ['addon:odd'], { [odd]: odd, list: [odd, `${odd}{{ __W_ID__.x }}`] })]);
    expect(q.render({ facets: ['addon:odd'], values: { w: { metadata: meta, x: 1 } } })).toMatchObject({
      [odd]: odd,
      list: [odd, `${odd}1`],
    });
  });

  it('gives byte-identical output for identical requests', () => {
    const a = JSON.stringify(p.render({ facets: ['addon:spec', 'addon:data'], values }));
    const b = JSON.stringify(p.render({ facets: ['addon:data', 'addon:spec'], values: JSON.parse(JSON.stringify(values)) }));
    expect(a).toBe(b);
  });
});
