/**
 * The volume sources a PersistentVolume may name, as core/validation judges each one (the
 * validate<Source>PersistentVolumeSource functions), and the defaults their versioned types get.
 * Kept apart from the PersistentVolume's spec rules because there are 22 of them.
 */
import { type FieldError, type FieldPath, invalid, invalidEach, notSupported, required } from '../apimachinery/field-error.js';
import { type Fields, copyOnWrite, isSet, list, object, string } from '../golang/values.js';
import { isDNS1123Label, nameIsDNSLabel } from '../apimachinery/names.js';
import { requireAll, validateAzureDisk, validateCSI, validateDisk, validateFC, validateISCSI } from './persistent-volume-disks.js';
import { isPlainObject } from '../../util/json.js';

const HOST_PATH_TYPES = ['', 'BlockDevice', 'CharDevice', 'Directory', 'DirectoryOrCreate', 'File', 'FileOrCreate', 'Socket'];
const QUOBYTE_REGISTRY = 'must be a host:port pair or multiple pairs separated by commas';

/** The sources' defaults (zz_generated.defaults.go for a PersistentVolume), on copies. */
export function defaultSources(spec: Fields): void {
  const source = (member: string): Fields | undefined => (isPlainObject(spec[member]) ? copyOnWrite(spec, member) : undefined);
  const hostPath = source('hostPath');
  if (hostPath && !isSet(hostPath.type)) hostPath.type = '';
  const rbd = source('rbd');
  if (rbd) {
    if (string(rbd.pool) === '') rbd.pool = 'rbd';
    if (string(rbd.user) === '') rbd.user = 'admin';
    if (string(rbd.keyring) === '') rbd.keyring = '/etc/ceph/keyring';
  }
  const iscsi = source('iscsi');
  if (iscsi && string(iscsi.iscsiInterface) === '') iscsi.iscsiInterface = 'default';
  const azureDisk = source('azureDisk');
  if (azureDisk) {
    if (!isSet(azureDisk.cachingMode)) azureDisk.cachingMode = 'ReadWrite';
    if (!isSet(azureDisk.fsType)) azureDisk.fsType = 'ext4';
    if (!isSet(azureDisk.readOnly)) azureDisk.readOnly = false;
    if (!isSet(azureDisk.kind)) azureDisk.kind = 'Shared';
  }
  const scaleIO = source('scaleIO');
  if (scaleIO) {
    if (string(scaleIO.storageMode) === '') scaleIO.storageMode = 'ThinProvisioned';
    if (string(scaleIO.fsType) === '') scaleIO.fsType = 'xfs';
  }
}

/** validatePathNoBacksteps: no `..` element. */
function validatePathNoBacksteps(value: string, path: FieldPath): FieldError[] {
  return value.split('/').includes('..') ? [invalid(path, value, "must not contain '..'")] : [];
}

function validateHostPath(source: Fields, path: FieldPath): FieldError[] {
  const value = string(source.path);
  if (value === '') return [required(path.child('path'))];
  const errors = validatePathNoBacksteps(value, path.child('path'));
  if (isSet(source.type) && !HOST_PATH_TYPES.includes(string(source.type)))
    errors.push(notSupported(path.child('type'), string(source.type), HOST_PATH_TYPES));
  return errors;
}

function validateGlusterfs(source: Fields, path: FieldPath): FieldError[] {
  const errors = requireAll(source, path, 'endpoints', 'path');
  if (isSet(source.endpointsNamespace)) {
    const namespace = string(source.endpointsNamespace);
    const namespacePath = path.child('endpointsNamespace');
    if (namespace === '')
      errors.push(invalid(namespacePath, namespace, 'if the endpointnamespace is set, it must be a valid namespace name'));
    else errors.push(...invalidEach(namespacePath, namespace, nameIsDNSLabel(namespace, false)));
  }
  return errors;
}

function validateFlocker(source: Fields, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const [name, uuid] = [string(source.datasetName), string(source.datasetUUID)];
  if (name === '' && uuid === '') errors.push(required(path, 'one of datasetName and datasetUUID is required'));
  if (name !== '' && uuid !== '') errors.push(invalid(path, 'resource', 'datasetName and datasetUUID can not be specified simultaneously'));
  if (name.includes('/')) errors.push(invalid(path.child('datasetName'), name, "must not contain '/'"));
  return errors;
}

function validateNFS(source: Fields, path: FieldPath): FieldError[] {
  const errors = requireAll(source, path, 'server', 'path');
  const value = string(source.path);
  if (!value.startsWith('/')) errors.push(invalid(path.child('path'), value, 'must be an absolute path'));
  return errors;
}

/** Whether Go's net.SplitHostPort takes `hostport`. */
function splitsHostPort(hostport: string): boolean {
  const last = hostport.lastIndexOf(':');
  if (last < 0) return false;
  let [from, after] = [0, 0];
  if (hostport[0] === '[') {
    const end = hostport.indexOf(']');
    if (end < 0 || end + 1 !== last) return false;
    [from, after] = [1, end + 1];
  } else if (hostport.slice(0, last).includes(':')) return false;
  return !hostport.slice(from).includes('[') && !hostport.slice(after).includes(']');
}

function validateQuobyte(source: Fields, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const registry = string(source.registry);
  if (registry === '') errors.push(required(path.child('registry'), QUOBYTE_REGISTRY));
  else if (Buffer.byteLength(string(source.tenant)) >= 65)
    errors.push(required(path.child('tenant'), 'must be a UUID and may not exceed a length of 64 characters'));
  else
    for (const pair of registry.split(','))
      if (!splitsHostPort(pair)) errors.push(invalid(path.child('registry'), registry, QUOBYTE_REGISTRY));
  return [...errors, ...requireAll(source, path, 'volume')];
}

/** A secret reference whose name and namespace are each required. */
function validateNamespacedSecret(source: Fields, path: FieldPath): FieldError[] {
  if (!isSet(source.secretRef)) return [];
  return requireAll(object(source.secretRef), path.child('secretRef'), 'name', 'namespace');
}

function validateFlex(source: Fields, path: FieldPath): FieldError[] {
  const errors = requireAll(source, path, 'driver');
  for (const key of Object.keys(object(source.options))) {
    const slash = key.indexOf('/');
    const normalized = `.${(slash < 0 ? key : key.slice(0, slash)).toLowerCase()}`;
    // Options in Kubernetes' own namespaces are for Kubernetes to set.
    if (normalized.endsWith('.kubernetes.io') || normalized.endsWith('.k8s.io'))
      errors.push(invalid(path.child('options').key(key), key, 'kubernetes.io and k8s.io namespaces are reserved'));
  }
  return errors;
}

function validateAzureFile(source: Fields, path: FieldPath): FieldError[] {
  const errors = requireAll(source, path, 'secretName', 'shareName');
  if (isSet(source.secretNamespace) && string(source.secretNamespace) === '') errors.push(required(path.child('secretNamespace')));
  return errors;
}

function validateLocal(source: Fields, path: FieldPath): FieldError[] {
  const value = string(source.path);
  return value === '' ? [required(path.child('path'))] : validatePathNoBacksteps(value, path.child('path'));
}

function validateStorageOS(source: Fields, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const [name, namespace] = [string(source.volumeName), string(source.volumeNamespace)];
  if (name === '') errors.push(required(path.child('volumeName')));
  else errors.push(...invalidEach(path.child('volumeName'), name, isDNS1123Label(name)));
  if (namespace !== '') errors.push(...invalidEach(path.child('volumeNamespace'), namespace, isDNS1123Label(namespace)));
  return [...errors, ...validateNamespacedSecret(source, path)];
}

export interface VolumeSource {
  member: string;
  /** The path Go validates the source at, where it is not the member's (GCE's `persistentDisk`). */
  validatedAs?: string;
  /** The path of Go's "more than 1 volume type" error, where it is not the member's (`cephFS`). */
  forbiddenAs?: string;
  /** A FlexVolume counts as a source but is never the one refused as a second. */
  neverSecond?: boolean;
  /** Whether a mount-options annotation is allowed with it (pkg/volume/validation checkMountOption). */
  mountOptions: boolean;
  validate(source: Fields, path: FieldPath, pvName: string): FieldError[];
}

/** In the order ValidatePersistentVolumeSpec checks them: the first one set is validated, later ones refused. */
export const SOURCES: VolumeSource[] = [
  { member: 'hostPath', mountOptions: false, validate: validateHostPath },
  { member: 'gcePersistentDisk', validatedAs: 'persistentDisk', mountOptions: true, validate: validateDisk('pdName') },
  { member: 'awsElasticBlockStore', mountOptions: true, validate: validateDisk('volumeID') },
  { member: 'glusterfs', mountOptions: true, validate: validateGlusterfs },
  { member: 'flocker', mountOptions: false, validate: validateFlocker },
  { member: 'nfs', mountOptions: true, validate: validateNFS },
  { member: 'rbd', mountOptions: true, validate: (source, path) => [...monitors(source, path), ...requireAll(source, path, 'image')] },
  { member: 'quobyte', mountOptions: true, validate: validateQuobyte },
  { member: 'cephfs', forbiddenAs: 'cephFS', mountOptions: true, validate: monitors },
  { member: 'iscsi', mountOptions: true, validate: validateISCSI },
  {
    member: 'cinder',
    mountOptions: true,
    validate: (source, path) => [...requireAll(source, path, 'volumeID'), ...validateNamespacedSecret(source, path)],
  },
  { member: 'fc', mountOptions: false, validate: validateFC },
  { member: 'flexVolume', neverSecond: true, mountOptions: false, validate: validateFlex },
  { member: 'azureFile', mountOptions: true, validate: validateAzureFile },
  { member: 'vsphereVolume', mountOptions: true, validate: (source, path) => requireAll(source, path, 'volumePath') },
  { member: 'photonPersistentDisk', mountOptions: true, validate: (source, path) => requireAll(source, path, 'pdID') },
  { member: 'portworxVolume', mountOptions: false, validate: (source, path) => requireAll(source, path, 'volumeID') },
  { member: 'azureDisk', mountOptions: true, validate: validateAzureDisk },
  { member: 'scaleIO', mountOptions: false, validate: (source, path) => requireAll(source, path, 'gateway', 'system', 'volumeName') },
  { member: 'local', mountOptions: false, validate: validateLocal },
  { member: 'storageos', mountOptions: false, validate: validateStorageOS },
  { member: 'csi', mountOptions: false, validate: validateCSI },
];

/** Ceph's monitors: at least one. */
function monitors(source: Fields, path: FieldPath): FieldError[] {
  return list(source.monitors).length === 0 ? [required(path.child('monitors'))] : [];
}
