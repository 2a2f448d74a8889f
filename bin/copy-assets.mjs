// Post-build step: mark the compiled CLI executable (npm link / npx use it directly).
import { chmodSync, existsSync } from 'node:fs';
const bin = new URL('../dist/bin/gstack.js', import.meta.url);
if (existsSync(bin)) chmodSync(bin, 0o755);
