/** The project's folder: two up from src/util, from the compiled lib/util and from the packed lib/packed alike. */
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const PROJECT_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
