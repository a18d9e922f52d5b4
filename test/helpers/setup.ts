/** Runs before every test file (vitest.config.ts setupFiles): what each file leaves behind goes when it ends. */
import { afterAll } from 'vitest';
import { removeFileTempDirs } from './repos.js';

afterAll(removeFileTempDirs);
