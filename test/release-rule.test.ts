/** The release rule (src/release/release.ts): what is a release, and which one serves by default. */
import { describe, expect, it } from 'vitest';
import { isRelease, latestRelease, nextRelease, RELEASE_PATTERN } from '../src/release/release.js';

const RELEASES = ['0.0.0', '1.0.0', '10.20.30', '1.0.0-rc.1', '1.0.0-0', '1.0.0-alpha-beta.0a', '1.0.0-x.7.z.92', '1.0.0--'];
const NOT_RELEASES = [
  '1.0.0-rc.01',
  '01.0.0',
  '1.00.0',
  '1.0',
  '1',
  'latest',
  '',
  'v1.0.0',
  ' 1.0.0',
  '1.0.0 ',
  '1.0.0+build.1',
  '1.0.0-',
  '1.0.0-rc..1',
  '1.0.0-rc_1',
];

describe('releases', () => {
  it('are semver versions without build metadata; a numeric prerelease identifier has no leading zero', () => {
    for (const release of RELEASES) expect(isRelease(release), release).toBe(true);
    for (const text of NOT_RELEASES) expect(isRelease(text), text).toBe(false);
  });

  it('are matched by the same pattern that JSON Schema and the lint rule use', () => {
    for (const text of [...RELEASES, ...NOT_RELEASES]) expect(RELEASE_PATTERN.test(text), text).toBe(isRelease(text));
  });

  it('serve the highest plain release by default, a prerelease only when there is nothing else', () => {
    const latest = (releases: string[]) => latestRelease(releases, (release) => release);
    expect(latest(['1.0.0', '1.2.0-rc.1', '1.1.0', '0.9.0'])).toBe('1.1.0');
    expect(latest(['1.2.0-rc.1', '1.2.0-rc.2', '1.1.0-rc.9'])).toBe('1.2.0-rc.2');
    expect(latest([])).toBeUndefined();
  });

  it('follow a release with the next patch for a fix and the next minor for an addition, a prerelease too', () => {
    expect([nextRelease('1.2.3', 'patch'), nextRelease('1.2.3', 'minor')]).toEqual(['1.2.4', '1.3.0']);
    expect([nextRelease('1.2.0-rc.1', 'patch'), nextRelease('1.2.0-rc.1', 'minor')]).toEqual(['1.2.1', '1.3.0']);
  });
});
