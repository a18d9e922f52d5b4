import { configDefaults, defineConfig } from 'vitest/config';
import base from './vitest.config.js';

// `npm run test:recipe`: the README's recipe for adding one section, on a copy of the project.
export default defineConfig({ ...base, test: { ...base.test, include: ['test/author-recipe.test.ts'], exclude: configDefaults.exclude } });
