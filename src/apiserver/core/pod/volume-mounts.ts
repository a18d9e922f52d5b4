/**
 * A container's volume mounts (core/validation ValidateVolumeMounts): each names a volume of the
 * pod, and has a mount path of its own. The volume devices, subPath, mount propagation and
 * recursiveReadOnly rules are not ported yet.
 */
import { type FieldError, type FieldPath, invalid, notFound, required } from '../../apimachinery/field-error.js';
import { object, string } from '../../golang/values.js';

/** ValidateVolumeMounts, `volumes` being the names of the pod's volumes (IsMatchedVolume). */
export function validateVolumeMounts(mounts: unknown[], volumes: ReadonlySet<string>, path: FieldPath): FieldError[] {
  const errors: FieldError[] = [];
  const mountPoints = new Set<string>();
  mounts.forEach((entry, i) => {
    const mount = object(entry);
    const itemPath = path.index(i);
    const name = string(mount.name);
    const mountPath = string(mount.mountPath);
    if (name === '') errors.push(required(itemPath.child('name')));
    if (!volumes.has(name)) errors.push(notFound(itemPath.child('name'), name));
    if (mountPath === '') errors.push(required(itemPath.child('mountPath')));
    if (mountPoints.has(mountPath)) errors.push(invalid(itemPath.child('mountPath'), mountPath, 'must be unique'));
    mountPoints.add(mountPath);
  });
  return errors;
}
