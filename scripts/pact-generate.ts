/**
 * Regenerates pacts/agent-agent-api.json from the consumer contract (src/pact/interactions.ts).
 * Pact merges into an existing file, so the pact is written into a fresh folder and copied over.
 *   npm run pact:generate
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PACT_FILE } from '../src/pact/contract.ts';
import { generatePact } from '../src/pact/generate.ts';

const dir = mkdtempSync(join(tmpdir(), 'conform-pact-'));
try {
  copyFileSync(await generatePact(dir), PACT_FILE);
  process.stdout.write(`wrote ${PACT_FILE}\n`);
} finally {
  rmSync(dir, { recursive: true, force: true });
}
