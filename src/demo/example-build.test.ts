import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync, existsSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildExample } from './example-build.js';

describe('buildExample', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'kubeforge-example-build-'));
    mkdirSync(join(dir, 'src/internal/controller'), { recursive: true });
    mkdirSync(join(dir, 'src/api/v1'), { recursive: true });
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('transpiles api/ and internal/ without tests, keeping kubeforge imports and dropping type-only ones', async () => {
    writeFileSync(join(dir, 'src/api/v1/thing_types.ts'), "export interface Thing { a: number }\nexport const ThingKind = 'Thing';\n");
    writeFileSync(join(dir, 'src/internal/controller/index.ts'), "import type { Manager } from 'kubeforge/runtime';\nimport { Client } from 'kubeforge/runtime';\nimport { ThingKind, type Thing } from '../../api/v1/thing_types.js';\nexport async function setupControllers(mgr: Manager): Promise<void> { const t: Thing = { a: 1 }; void [mgr, t, ThingKind, Client]; }\n");
    writeFileSync(join(dir, 'src/internal/controller/index.test.ts'), 'it("x", () => {});\n');
    const count = await buildExample(join(dir, 'src'), join(dir, 'out'));
    expect(count).toBe(2);
    const index = readFileSync(join(dir, 'out/internal/controller/index.js'), 'utf8');
    expect(index).toContain("import { Client } from 'kubeforge/runtime';");
    expect(index).toContain("import { ThingKind } from '../../api/v1/thing_types.js';");
    expect(index).not.toContain('Manager');
    expect(existsSync(join(dir, 'out/internal/controller/index.test.js'))).toBe(false);
  });

  it('transpiles the extra folders asked for (jobconfig\'s cmd/furiko), and no other folder of cmd/', async () => {
    mkdirSync(join(dir, 'src/cmd/furiko'), { recursive: true });
    writeFileSync(join(dir, 'src/api/v1/thing_types.ts'), 'export const ThingKind = 1;\n');
    writeFileSync(join(dir, 'src/cmd/furiko/main.ts'), "import { ThingKind } from '../../api/v1/thing_types.js';\nconsole.log(ThingKind as number);\n");
    writeFileSync(join(dir, 'src/cmd/main.ts'), 'export {};\n');
    expect(await buildExample(join(dir, 'src'), join(dir, 'out'), ['cmd/furiko'])).toBe(2);
    expect(readFileSync(join(dir, 'out/cmd/furiko/main.js'), 'utf8')).toContain('console.log(ThingKind);');
    expect(existsSync(join(dir, 'out/cmd/main.js'))).toBe(false);
  });

  it('names file:line:col of a syntax error', async () => {
    writeFileSync(join(dir, 'src/internal/controller/index.ts'), 'export const ok = 1;\nexport function broken( {\n');
    await expect(buildExample(join(dir, 'src'), join(dir, 'out'))).rejects.toThrow(/src\/internal\/controller\/index\.ts:\d+:\d+: /);
  });

  it('says so when there is nothing to build', async () => {
    rmSync(join(dir, 'src'), { recursive: true });
    await expect(buildExample(join(dir, 'src'), join(dir, 'out'))).rejects.toThrow(/no TypeScript sources under api\/, internal\//);
  });
});
