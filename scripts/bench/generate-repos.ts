/**
 * A generated set of template repositories for the scale benchmark: `count` Service collections of
 * ten sections each (a master and nine features), one example each, in repositories of at most 100
 * collections.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

// Values the API server takes together: loadBalancerSourceRanges only with type LoadBalancer.
const FEATURES: Array<[string, string, unknown]> = [
  ['ports', 'ports', [{ port: 80, targetPort: 8080, protocol: 'TCP' }]],
  ['type', 'type', 'LoadBalancer'],
  ['sessionaffinity', 'sessionAffinity', 'ClientIP'],
  ['externalips', 'externalIPs', ['192.0.2.10']],
  ['trafficpolicy', 'internalTrafficPolicy', 'Local'],
  ['publishnotready', 'publishNotReadyAddresses', true],
  ['ipfamilies', 'ipFamilies', ['IPv4']],
  ['ipfamilypolicy', 'ipFamilyPolicy', 'SingleStack'],
  ['sourceranges', 'loadBalancerSourceRanges', ['10.0.0.0/8']],
];

const json = (value: unknown) => JSON.stringify(value, null, 2) + '\n';

export function generateRepos(dir: string, count: number): string {
  for (let index = 0; index < count; index++) {
    const repository = `generated-${String(Math.floor(index / 100)).padStart(2, '0')}`;
    const repositoryDir = path.join(dir, repository);
    if (index % 100 === 0) {
      mkdirSync(repositoryDir, { recursive: true });
      writeFileSync(
        path.join(repositoryDir, 'repository.json'),
        json({
          name: repository,
          vendor: 'facetform',
          apiVersion: 'v1',
          release: '1.0.0',
          description: 'Generated for the scale benchmark.',
        }),
      );
    }
    const name = `service-${String(index).padStart(4, '0')}`;
    const variable = `__S${String(index).padStart(4, '0')}_ID__`;
    const collectionDir = path.join(repositoryDir, name);
    mkdirSync(path.join(collectionDir, 'sections'), { recursive: true });
    mkdirSync(path.join(collectionDir, 'examples'), { recursive: true });
    writeFileSync(
      path.join(collectionDir, 'collection.json'),
      json({ name, variable, kind: 'Service', apiVersion: 'v1', description: `Generated Service ${index}.` }),
    );
    writeFileSync(
      path.join(collectionDir, 'sections', 'core.json'),
      json({
        $description: 'Core.',
        facets: ['master'],
        apiVersion: 'v1',
        kind: 'Service',
        metadata: `{{ ${variable}.metadata }}`,
        spec: { selector: `{{ ${variable}.spec.selector }}` },
      }),
    );
    const spec: Record<string, unknown> = { selector: { app: name } };
    for (const [facet, member, value] of FEATURES) {
      writeFileSync(
        path.join(collectionDir, 'sections', `${facet}.json`),
        json({
          $description: `Sets spec.${member}.`,
          facets: ['addon:spec', `addon:${facet}`],
          spec: { [member]: `{{ ${variable}.spec.${member} }}` },
        }),
      );
      spec[member] = value;
    }
    writeFileSync(
      path.join(collectionDir, 'examples', 'all.json'),
      json({
        $description: 'Every section.',
        facets: ['addon:spec'],
        values: { app: { metadata: { name, namespace: 'default' }, spec } },
        globalvars: { [variable]: 'app' },
      }),
    );
  }
  return dir;
}
