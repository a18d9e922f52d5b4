/**
 * A Pod's containers and init containers (core/validation validateContainers,
 * validateInitContainers, validateContainerCommon, validatePullPolicy,
 * validateContainerOnlyForPod), run on containers already defaulted (container-defaults.ts).
 * Not ported yet, so not judged here: envFrom, volume devices, resize policy, security context,
 * lifecycle handlers, ephemeral containers.
 */
import {
  type FieldError,
  FieldPath,
  NONE,
  duplicate,
  forbidden,
  invalid,
  invalidEach,
  notSupported,
  required,
} from '../../apimachinery/field-error.js';
import { isDNS1123Label } from '../../apimachinery/names.js';
import { type Fields, goTrimSpace, isSet, list, object, string } from '../../golang/values.js';
import { checkHostPortConflicts, validateContainerPorts } from './container-ports.js';
import { validateEnv } from './env.js';
import { validateLivenessProbe, validateReadinessProbe, validateStartupProbe } from './probes.js';
import { validateContainerResourceRequirements } from './resources.js';
import { validateVolumeMounts } from './volume-mounts.js';

const TERMINATION_MESSAGE_POLICIES = ['File', 'FallbackToLogsOnError'];
const PULL_POLICIES = ['Always', 'IfNotPresent', 'Never'];
const PROBES = ['livenessProbe', 'readinessProbe', 'startupProbe'];
const NOT_RESTARTABLE = 'may not be set for init containers without restartPolicy=Always';

/** validatePullPolicy. */
function validatePullPolicy(policy: string, path: FieldPath): FieldError[] {
  if (policy === '') return [required(path)];
  return PULL_POLICIES.includes(policy) ? NONE : [notSupported(path, policy, PULL_POLICIES)];
}

/** validateContainerCommon: what regular and init containers share. */
export function validateContainerCommon(container: Fields, volumes: ReadonlySet<string>, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const name = string(container.name);
  if (name === '') errors.push(required(path.child('name')));
  else errors.push(...invalidEach(path.child('name'), name, isDNS1123Label(name)));
  if (string(container.image) === '') errors.push(required(path.child('image')));
  const policy = string(container.terminationMessagePolicy);
  if (policy === '') errors.push(required(path.child('terminationMessagePolicy')));
  else if (!TERMINATION_MESSAGE_POLICIES.includes(policy))
    errors.push(notSupported(path.child('terminationMessagePolicy'), policy, TERMINATION_MESSAGE_POLICIES));
  errors.push(
    ...validateContainerPorts(list(container.ports), path.child('ports')),
    ...validateEnv(list(container.env), path.child('env')),
    ...validateVolumeMounts(list(container.volumeMounts), volumes, path.child('volumeMounts')),
    ...validatePullPolicy(string(container.imagePullPolicy), path.child('imagePullPolicy')),
    ...validateContainerResourceRequirements(container.resources, path.child('resources')),
  );
  return errors;
}

function validateProbes(container: Fields, path: FieldPath): FieldError[] {
  return [
    ...validateLivenessProbe(container.livenessProbe, path.child('livenessProbe')),
    ...validateReadinessProbe(container.readinessProbe, path.child('readinessProbe')),
    ...validateStartupProbe(container.startupProbe, path.child('startupProbe')),
  ];
}

/** validateContainers: at least one, names unique among them, host ports unique across them. */
export function validateContainers(containers: readonly Fields[], volumes: ReadonlySet<string>, path: FieldPath): FieldError[] {
  if (containers.length === 0) return [required(path)];
  const errors: FieldError[] = [];
  const names = new Set<string>();
  containers.forEach((container, i) => {
    const itemPath = path.index(i);
    errors.push(...validateContainerCommon(container, volumes, itemPath));
    const name = string(container.name);
    if (names.has(name)) errors.push(duplicate(itemPath.child('name'), name));
    else names.add(name);
    errors.push(...validateProbes(container, itemPath));
    if (isSet(container.restartPolicy)) errors.push(forbidden(itemPath.child('restartPolicy'), 'may not be set for non-init containers'));
  });
  return [...errors, ...checkHostPortConflicts(containers, path)];
}

/** validateInitContainers: names unique among them and the regular containers; probes only for a sidecar (restartPolicy Always). */
export function validateInitContainers(
  containers: readonly Fields[],
  regular: readonly Fields[],
  volumes: ReadonlySet<string>,
  path: FieldPath,
): FieldError[] {
  const errors: FieldError[] = [];
  const names = new Set(regular.map((container) => string(container.name)));
  containers.forEach((container, i) => {
    const itemPath = path.index(i);
    errors.push(...validateContainerCommon(container, volumes, itemPath));
    const restartPolicy = container.restartPolicy;
    if (isSet(restartPolicy) && restartPolicy !== 'Always')
      errors.push(notSupported(itemPath.child('restartPolicy'), string(restartPolicy), ['Always']));
    const name = string(container.name);
    if (names.has(name)) errors.push(duplicate(itemPath.child('name'), name));
    else if (name !== '') names.add(name);
    // Init containers run one by one, so only each one's own host ports may collide. Go passes
    // the one container as a list of its own, so the path names init container 0 whichever it is.
    errors.push(...checkHostPortConflicts([container], path));
    if (restartPolicy === 'Always') errors.push(...validateProbes(container, itemPath));
    else for (const probe of PROBES) if (isSet(container[probe])) errors.push(forbidden(itemPath.child(probe), NOT_RESTARTABLE));
    if (isSet(container.lifecycle) && restartPolicy !== 'Always') errors.push(forbidden(itemPath.child('lifecycle'), NOT_RESTARTABLE));
  });
  return errors;
}

/** validateContainerOnlyForPod: a Pod's (not a template's) image has no surrounding space. */
export function validateContainersOnlyForPod(containers: readonly Fields[], path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  containers.forEach((container, i) => {
    const image = string(container.image);
    if (image.length !== goTrimSpace(image).length)
      errors.push(invalid(path.index(i).child('image'), image, 'must not have leading or trailing whitespace'));
  });
  return errors;
}

/** The names of a pod spec's volumes, which volume mounts must name (IsMatchedVolume). */
export const volumeNames = (spec: Fields): Set<string> => new Set(list(spec.volumes).map((volume) => string(object(volume).name)));

/**
 * The container rules of ValidatePodSpec and ValidatePodCreate, in their order, for a Pod's spec
 * already defaulted (setDefaultsPodContainers); `onlyForPod` adds the rules a template skips.
 */
export function validatePodContainers(spec: Fields, path: FieldPath, onlyForPod: boolean): FieldError[] {
  const containers = list(spec.containers).map(object);
  const initContainers = list(spec.initContainers).map(object);
  const volumes = volumeNames(spec);
  const errors = [
    ...validateContainers(containers, volumes, path.child('containers')),
    ...validateInitContainers(initContainers, containers, volumes, path.child('initContainers')),
  ];
  if (onlyForPod)
    errors.push(
      ...validateContainersOnlyForPod(containers, path.child('containers')),
      ...validateContainersOnlyForPod(initContainers, path.child('initContainers')),
    );
  return errors;
}
