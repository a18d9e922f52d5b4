/** Rules for `$values`: refinements of the generated input schema, keyed by placeholder path. */
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { GO_PATTERN_FIX, goRegExpEngine, isRefusedPattern } from '../../schema/go-regexp.js';
import { isPlainObject } from '../../util/json.js';
import type { SectionModel } from '../../collection/model.js';
import type { LintReport } from '../report.js';

// ajv-formats is CommonJS; its default export arrives wrapped under NodeNext resolution. Imported here,
// not where the server compiles, which takes its formats from kube-formats.ts and so starts without it.
const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv) => Ajv;
const HINT = 'write "$values": { "<path read by a placeholder>": { "schema": { ...JSON Schema... }, "required": true } }';
// The same formats and pattern engine (Go's regexp) as the validators the server compiles, so that a
// refinement means the same here and a pattern Go refuses is found here.
const metaValidator = addFormats(new Ajv({ strict: false, code: { regExp: goRegExpEngine } }));

export function lintRefinements(section: SectionModel, report: LintReport): void {
  const refinements = section.body?.$values;
  if (refinements === undefined) return;
  const { file } = section;
  if (!isPlainObject(refinements)) {
    report.error(file, ['$values'], '"$values" must be an object', HINT);
    return;
  }
  const paths = new Set(
    section.sites.flatMap((site) =>
      site.expressions.flatMap((expression) => expression.references.map((reference) => reference.path.join('.'))),
    ),
  );
  for (const [path, refinement] of Object.entries(refinements)) {
    const at = ['$values', path];
    if (!paths.has(path)) {
      report.error(
        file,
        at,
        `"$values" refines "${path}", but no placeholder of this section reads it`,
        `use one of: ${[...paths].join(', ') || '(this section has no placeholders)'}`,
      );
    }
    if (!isPlainObject(refinement)) {
      report.error(file, at, `refinement of "${path}" must be an object`, HINT);
      continue;
    }
    for (const key of Object.keys(refinement)) {
      if (key !== 'schema' && key !== 'required')
        report.error(
          file,
          [...at, key],
          `unknown refinement "${key}"`,
          'a refinement has "schema" (a JSON Schema) and "required" (a boolean)',
        );
    }
    if (refinement.required !== undefined && typeof refinement.required !== 'boolean') {
      report.error(file, [...at, 'required'], '"required" must be true or false', HINT);
    }
    if (refinement.schema !== undefined) {
      if (!isPlainObject(refinement.schema)) {
        report.error(file, [...at, 'schema'], '"schema" must be a JSON Schema object', HINT);
      } else if (!metaValidator.validateSchema(refinement.schema)) {
        report.error(
          file,
          [...at, 'schema'],
          `"schema" is not a valid JSON Schema: ${metaValidator.errorsText(metaValidator.errors)}`,
          'see https://json-schema.org/understanding-json-schema',
        );
      } else {
        try {
          metaValidator.compile(refinement.schema);
        } catch (error) {
          report.error(
            file,
            [...at, 'schema'],
            `"schema" cannot be used: ${(error as Error).message}`,
            isRefusedPattern(error) ? GO_PATTERN_FIX : 'a refinement stands alone: it cannot refer to definitions ($ref) of other schemas',
          );
        }
      }
    }
  }
}
