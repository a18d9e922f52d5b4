/**
 * What claims and volumes share: access modes (one at least, known, ReadWriteOncePod alone),
 * storage quantities, storageClassName and volumeMode, valid and their probes.
 */
import fc from 'fast-check';
import { probe } from './case.js';
import { candidate } from './near-miss.js';
import { validString } from './strings.js';

export const MODES = ['ReadWriteOnce', 'ReadOnlyMany', 'ReadWriteMany'];
export const accessModes = fc.oneof(
  { arbitrary: fc.subarray(MODES, { minLength: 1 }), weight: 4 },
  { arbitrary: fc.constant(['ReadWriteOncePod']), weight: 1 },
);
export const quantity = fc.oneof(
  fc.constantFrom('1Gi', '10Gi', '500Mi', '1Ti', '100G', '1', '1.5Gi', '2e9'),
  fc.integer({ min: 1, max: 1000 }).map((n) => `${n}Gi`),
);
export const className = fc.option(fc.oneof(fc.constantFrom('standard', 'fast', 'gp3', ''), validString('dns1123Subdomain')), {
  nil: undefined,
});

export const BAD_MODES = [
  ['ReadWriteOncePod', 'ReadWriteOnce'],
  ['ReadWriteOncePod', 'ReadOnlyMany'],
  ['ReadWriteOncePod', 'ReadWriteOncePod'],
  ['ReadWriteOnce', 'ReadWriteOnce'],
  [],
  ['readwriteonce'],
  ['ReadWriteOnce', 'Bogus'],
  [''],
];
export const QUANTITIES = ['0', '0Gi', '-1Gi', '1m', '1', '0.5', '1Ei', '100m', '1e-3'];

export const modesProbe = (at: string[]) =>
  probe('modes/accessModes', fc.constantFrom(...BAD_MODES), (m, modes) => (m.spec[at[0]!] = modes), 4);
export const volumeModeProbe = probe(
  'modes/volumeMode',
  fc.constantFrom('Filesystem', 'Block', 'block', '', 'Raw'),
  (m, mode) => (m.spec.volumeMode = mode),
  2,
);
export const classNameProbe = probe(
  'modes/storageClassName',
  candidate('dns1123Subdomain'),
  (m, name) => (m.spec.storageClassName = name),
  2,
);
