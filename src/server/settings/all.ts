/** Every setting of the server, in the order help and docs list them. */
import { LIMIT_SETTINGS, TIMEOUT_SETTINGS } from './limits.js';
import { REGISTRY_SETTINGS } from './registry.js';
import { SERVING_SETTINGS } from './serving.js';

export const SETTING = { ...SERVING_SETTINGS, ...LIMIT_SETTINGS, ...TIMEOUT_SETTINGS, ...REGISTRY_SETTINGS };
