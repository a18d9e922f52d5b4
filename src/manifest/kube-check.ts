/**
 * Checks a rendered manifest the way a cluster's schema would, with `kubernetes-models` (the
 * official OpenAPI schemas compiled to validators). Kinds it does not know are not checked.
 */
type ModelClass = new (data: unknown) => { validate(): void };

const modules = new Map<string, Promise<Record<string, unknown> | undefined>>();

async function modelOf(apiVersion: string, kind: string): Promise<ModelClass | undefined> {
  if (!/^([a-z0-9.-]+\/)?v[0-9a-z]+$/.test(apiVersion)) return undefined;
  let loading = modules.get(apiVersion);
  if (loading === undefined) {
    loading = import(`kubernetes-models/${apiVersion}`).then(
      (module: Record<string, unknown>) => module,
      () => undefined,
    );
    modules.set(apiVersion, loading);
  }
  const module = await loading;
  const model = module?.[kind];
  return typeof model === 'function' ? (model as ModelClass) : undefined;
}

export interface KubeCheck {
  /** False when kubernetes-models has no model for the kind. */
  checked: boolean;
  errors: string[];
}

export async function checkManifest(manifest: { apiVersion?: unknown; kind?: unknown }): Promise<KubeCheck> {
  if (typeof manifest.apiVersion !== 'string' || typeof manifest.kind !== 'string') {
    return { checked: true, errors: ['apiVersion and kind must be strings'] };
  }
  const Model = await modelOf(manifest.apiVersion, manifest.kind);
  if (Model === undefined) return { checked: false, errors: [] };
  try {
    new Model(manifest).validate();
    return { checked: true, errors: [] };
  } catch (error) {
    const details = (error as { errors?: Array<{ instancePath?: string; message?: string }> }).errors;
    if (Array.isArray(details) && details.length > 0) {
      return { checked: true, errors: details.map((detail) => `${detail.instancePath || '/'} ${detail.message ?? 'is invalid'}`) };
    }
    return { checked: true, errors: [(error as Error).message] };
  }
}
