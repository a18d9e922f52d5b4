/**
 * The block-device and cloud-disk sources of a PersistentVolume (iSCSI, Fibre Channel, GCE and
 * AWS disks, Azure disks, CSI), as core/validation judges each one: kept apart from
 * persistent-volume-sources.ts, which lists every source, for its length.
 */
import { type FieldError, type FieldPath, invalid, invalidEach, notSupported, required, tooLong } from '../apimachinery/field-error.js';
import { type Fields, isSet, list, number, object, string, strings } from '../golang/values.js';
import { isDNS1123Label, isDNS1123Subdomain } from '../apimachinery/names.js';

const AZURE_CACHING_MODES = ['None', 'ReadOnly', 'ReadWrite'];
const AZURE_DISK_KINDS = ['Dedicated', 'Managed', 'Shared'];
const MANAGED_DISK_URI = '/subscriptions/{sub-id}/resourcegroups/{group-name}/providers/microsoft.compute/disks/{disk-id}';
const BLOB_DISK_URI = 'https://{account-name}.blob.core.windows.net/{container-name}/{disk-name}.vhd';
const PARTITION_RANGE = 'must be between 1 and 255, inclusive';

// Go's regexps, unanchored where Go's are; RE2's \s is [\t\n\f\r ] and its '.' any rune but '\n'.
const IQN = /iqn\.[0-9]{4}-[0-9]{2}\.([A-Za-z0-9\-.]+)(:[^,;*&$|\t\n\f\r ]+)$/u;
const EUI = /^eui[^\n][A-Za-z0-9]{16}$/u;
const NAA = /^naa[^\n][A-Za-z0-9]{32}$/u;

/** Required where a string member is empty. */
export const requireAll = (source: Fields, path: FieldPath, ...members: string[]): FieldError[] =>
  members.filter((member) => string(source[member]) === '').map((member) => required(path.child(member)));

/** The IQN, EUI or NAA rules an iSCSI name meets by its prefix. */
const hasInitiatorPrefix = (name: string): boolean => ['iqn', 'eui', 'naa'].some((prefix) => name.startsWith(prefix));
const badInitiatorFormat = (name: string): boolean =>
  (name.startsWith('iqn') && !IQN.test(name)) || (name.startsWith('eui') && !EUI.test(name)) || (name.startsWith('naa') && !NAA.test(name));

export function validateISCSI(source: Fields, path: FieldPath, pvName: string): FieldError[] {
  const errors = requireAll(source, path, 'targetPortal');
  const portal = string(source.targetPortal);
  if (isSet(source.initiatorName) && Buffer.byteLength(`${pvName}:${portal}`) > 64)
    errors.push(
      invalid(
        path.childSpelled('targetportal', 'targetPortal'),
        portal,
        'Total length of <volume name>:<iscsi.targetPortal> must be under 64 characters if iscsi.initiatorName is specified.',
      ),
    );
  const iqn = string(source.iqn);
  if (iqn === '') errors.push(required(path.child('iqn')));
  else if (!hasInitiatorPrefix(iqn) || badInitiatorFormat(iqn)) errors.push(invalid(path.child('iqn'), iqn, 'must be valid format'));
  const lun = number(source.lun);
  if (lun < 0 || lun > 255) errors.push(invalid(path.child('lun'), lun, 'must be between 0 and 255, inclusive'));
  if ((source.chapAuthDiscovery === true || source.chapAuthSession === true) && !isSet(source.secretRef))
    errors.push(required(path.child('secretRef')));
  if (isSet(source.secretRef) && string(object(source.secretRef).name) === '') errors.push(required(path.child('secretRef', 'name')));
  if (isSet(source.initiatorName)) {
    const initiator = string(source.initiatorName);
    const initiatorPath = path.childSpelled('initiatorname', 'initiatorName');
    // Go checks the prefix and the format separately, so a name may get both errors.
    if (!hasInitiatorPrefix(initiator)) errors.push(invalid(initiatorPath, initiator, 'must be valid format'));
    if (badInitiatorFormat(initiator)) errors.push(invalid(initiatorPath, initiator, 'must be valid format'));
  }
  return errors;
}

export function validateFC(source: Fields, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const wwns = strings(source.targetWWNs);
  const wwids = list(source.wwids);
  if (wwns.length === 0 && wwids.length === 0)
    errors.push(required(path.child('targetWWNs'), 'must specify either targetWWNs or wwids, but not both'));
  if (wwns.length !== 0 && wwids.length !== 0)
    errors.push(invalid(path.child('targetWWNs'), wwns, 'targetWWNs and wwids can not be specified simultaneously'));
  if (wwns.length !== 0) {
    if (!isSet(source.lun)) errors.push(required(path.child('lun'), 'lun is required if targetWWNs is specified'));
    else if (number(source.lun) < 0 || number(source.lun) > 255)
      errors.push(invalid(path.child('lun'), number(source.lun), 'must be between 0 and 255, inclusive'));
  }
  return errors;
}

export function validateDisk(idMember: string) {
  return (source: Fields, path: FieldPath): FieldError[] => {
    const errors = requireAll(source, path, idMember);
    const partition = number(source.partition);
    if (partition < 0 || partition > 255) errors.push(invalid(path.child('partition'), partition, PARTITION_RANGE));
    return errors;
  };
}

export function validateAzureDisk(source: Fields, path: FieldPath): FieldError[] {
  const errors = requireAll(source, path, 'diskName', 'diskURI');
  const uri = string(source.diskURI);
  if (isSet(source.cachingMode) && !AZURE_CACHING_MODES.includes(string(source.cachingMode)))
    errors.push(notSupported(path.child('cachingMode'), string(source.cachingMode), AZURE_CACHING_MODES));
  if (isSet(source.kind)) {
    const kind = string(source.kind);
    if (!AZURE_DISK_KINDS.includes(kind)) errors.push(notSupported(path.child('kind'), kind, AZURE_DISK_KINDS));
    if (kind === 'Managed' && !uri.startsWith('/subscriptions/')) errors.push(notSupported(path.child('diskURI'), uri, [MANAGED_DISK_URI]));
    if (kind !== 'Managed' && !uri.startsWith('https://')) errors.push(notSupported(path.child('diskURI'), uri, [BLOB_DISK_URI]));
  }
  return errors;
}

/** ValidateCSIDriverName: a DNS subdomain in any case, of at most 63 bytes. */
export function validateCSIDriverName(driver: string, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  if (driver === '') errors.push(required(path));
  if (Buffer.byteLength(driver) > 63) errors.push(tooLong(path, 63));
  return [...errors, ...invalidEach(path, driver, isDNS1123Subdomain(driver.toLowerCase()))];
}

export function validateCSI(source: Fields, path: FieldPath): FieldError[] {
  const errors = validateCSIDriverName(string(source.driver), path.child('driver'));
  errors.push(...requireAll(source, path, 'volumeHandle'));
  for (const member of ['controllerPublishSecretRef', 'controllerExpandSecretRef', 'nodePublishSecretRef', 'nodeExpandSecretRef']) {
    if (!isSet(source[member])) continue;
    const reference = object(source[member]);
    const [name, namespace] = [string(reference.name), string(reference.namespace)];
    const referencePath = path.child(member);
    if (name === '') errors.push(required(referencePath.child('name')));
    else errors.push(...invalidEach(referencePath.child('name'), name, isDNS1123Subdomain(name)));
    if (namespace === '') errors.push(required(referencePath.child('namespace')));
    else errors.push(...invalidEach(referencePath.child('namespace'), namespace, isDNS1123Label(namespace)));
  }
  return errors;
}
