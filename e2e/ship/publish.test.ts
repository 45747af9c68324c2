/**
 * A publishable kubeforge (issue 15): what `npm pack` puts in the tarball, every runtime import of it a
 * dependency (not a dev dependency), and — installed from the tarball into a clean folder with only its
 * dependencies — `kubeforge init`, `create api`, `manifests` and the made project's own `npm test` working
 * from that install. The install (one `npm install <tarball>`, better-sqlite3 compiled when no prebuilt
 * binary is reachable: minutes) is skipped with KUBEFORGE_SKIP_NPM_INSTALL=1; the tarball checks are not.
 */
import { builtinModules } from 'node:module';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHECKOUT, expectSuccess, linkProjectDependencies, packKubeforgeListed, plainEnv, prebuiltBinaryMirror, runCommand, SKIP_NPM_INSTALL, type PackedKubeforge } from './ship-harness.js';

interface PackageJson {
  version: string;
  bin: Record<string, string>;
  files: string[];
  scripts: Record<string, string>;
  dependencies: Record<string, string>;
  devDependencies: Record<string, string>;
}

const ownPackage = JSON.parse(readFileSync(join(CHECKOUT, 'package.json'), 'utf8')) as PackageJson;

// One `npm pack` (no scripts) for the whole file: its listing for the tarball checks, its tarball for the install.
const packFolder = mkdtempSync(join(tmpdir(), 'kubeforge-publish-pack-'));
afterAll(() => rmSync(packFolder, { recursive: true, force: true }));
let packed: Promise<PackedKubeforge> | undefined;
const packOnce = (): Promise<PackedKubeforge> => (packed ??= packKubeforgeListed(packFolder));

/** The files `npm pack` puts in the tarball (npm's own listing, as `npm pack --dry-run --json` gives it). */
async function packedFiles(): Promise<string[]> {
  return (await packOnce()).files;
}

/**
 * The packages a compiled file loads: `from '…'`, `import('…')`, `require('…')` and the calls of a
 * `createRequire(…)` function (`requireHere('…')`, `createRequire(url)('…')`, `.resolve('…')`) with a literal
 * that is not relative; reduced to the package name (`@scope/name` or `name`).
 */
function importedPackages(source: string): string[] {
  const found = new Set<string>();
  // Comment lines (JSDoc and //) only talk about code.
  source = source
    .split('\n')
    .filter((line) => !/^\s*(\/\/|\/\*|\*)/.test(line))
    .join('\n');
  const pattern = /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire(?:[A-Z]\w*)?\s*\(\s*|\bcreateRequire\([^()]*(?:\([^()]*\))?[^()]*\)\s*\(\s*|\.resolve\(\s*)(['"])([^'"]+)\1/g;
  for (const match of source.matchAll(pattern)) {
    const specifier = match[2];
    if (specifier.startsWith('.') || specifier.startsWith('node:') || builtinModules.includes(specifier)) continue;
    // A package name (npm's rules: lower case, no spaces); anything else is a string that only looks like a call.
    if (!/^(@[a-z0-9][\w.-]*\/)?[a-z0-9][\w.-]*(\/\S*)?$/.test(specifier)) continue;
    const parts = specifier.split('/');
    found.add(specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
  }
  return [...found];
}

/**
 * Packages loaded through a require made at a dependency's own location (dist/reader/typescript.js takes
 * ts-morph's bundled compiler from `@ts-morph/common`, next to ts-morph): a dependency of that dependency.
 */
const LOADED_THROUGH: Record<string, string> = { '@ts-morph/common': 'ts-morph' };

/**
 * Packages a file loads from the made project it works on, with a require made at the project's package.json:
 * `kubeforge dev` compiles with the project's own typescript (a devDependency of every made project).
 */
const LOADED_FROM_PROJECT: Record<string, string[]> = { 'dist/cli/dev-compiler.js': ['typescript'] };

function dependenciesOf(name: string): Record<string, string> {
  return (JSON.parse(readFileSync(join(CHECKOUT, 'node_modules', name, 'package.json'), 'utf8')) as { dependencies?: Record<string, string> }).dependencies ?? {};
}

describe('the packed kubeforge', () => {
  it('holds the command, the compiled code, the templates and the marker catalogue, and no tests or demo', async () => {
    const files = await packedFiles();
    for (const needed of ['package.json', 'bin/kubeforge.js', 'dist/cli/main.js', 'dist/runtime/index.js', 'dist/testing/index.d.ts', 'templates/init/Dockerfile.hbs', 'markers/crd.json', 'kubernetes/core/v1.d.ts']) {
      expect({ needed, packed: files.includes(needed) }).toEqual({ needed, packed: true });
    }
    expect(files.filter((f) => f.startsWith('src/') || f.startsWith('e2e/') || f.startsWith('dist/demo/') || f.startsWith('dist/furiko-cli-test-') || /\.test\.(js|ts)$/.test(f) || f.startsWith('examples/'))).toEqual([]);
    expect(ownPackage.bin).toEqual({ kubeforge: 'bin/kubeforge.js' });
  });

  it('builds on pack (prepack) and runs no script at install that needs a dev dependency', () => {
    expect(ownPackage.scripts.prepack).toContain('tsc -p tsconfig.build.json');
    // A tarball or file: dependency runs its preinstall/install/postinstall/prepare scripts in the user's
    // project, where typescript (a dev dependency) is not installed.
    for (const script of ['preinstall', 'install', 'postinstall', 'prepare']) expect({ script, defined: script in ownPackage.scripts }).toEqual({ script, defined: false });
  });

  it('imports at run time only its dependencies', async () => {
    const compiled = (await packedFiles()).filter((f) => f.endsWith('.js'));
    expect(compiled.length).toBeGreaterThan(100);
    const missing: string[] = [];
    const used = new Set<string>();
    for (const file of compiled) {
      for (const name of importedPackages(readFileSync(join(CHECKOUT, file), 'utf8'))) {
        used.add(name);
        const through = LOADED_THROUGH[name];
        // kubeforge naming itself (`kubeforge/api` in the code the generators write) resolves through its own exports.
        const provided =
          name === 'kubeforge' ||
          name in ownPackage.dependencies || (through !== undefined && through in ownPackage.dependencies && name in dependenciesOf(through)) || (LOADED_FROM_PROJECT[file] ?? []).includes(name);
        if (!provided) missing.push(`${file} imports ${name}${name in ownPackage.devDependencies ? ' (a dev dependency)' : ''}`);
      }
    }
    expect(missing).toEqual([]);
    // The allowance above is what the code does: the project's own typescript, by the project's package.json.
    expect(readFileSync(join(CHECKOUT, 'dist/cli/dev-compiler.js'), 'utf8')).toContain("createRequire(join(root, 'package.json'))('typescript')");
    // The scan sees the imports it must see (the static, the dynamic and the createRequire ones).
    expect([...used]).toEqual(expect.arrayContaining(['commander', 'ts-morph', 'better-sqlite3', 'pino-pretty', '@peculiar/x509']));
  });

  it('recognises the import forms of the compiled code', () => {
    const source = [
      "import { a } from 'commander';",
      "const x = await import('@scope/pkg/sub');",
      "const load = () => createRequire(import.meta.url)('pino-pretty');",
      "const main = requireHere.resolve('ts-morph');",
      "program.requiredOption('--group <group>', 'x'); const r = require('yaml'); throw new Error(fail('spec.group'));",
      "import { readFileSync } from 'node:fs'; import path from 'path'; import { b } from './local.js';",
    ].join('\n');
    expect(importedPackages(source).sort()).toEqual(['@scope/pkg', 'commander', 'pino-pretty', 'ts-morph', 'yaml']);
  });
});

(SKIP_NPM_INSTALL ? describe.skip : describe)('kubeforge installed from its tarball into a clean folder', () => {
  let parent: string;
  beforeAll(() => {
    parent = mkdtempSync(join(tmpdir(), 'kubeforge-publish-'));
  });
  afterAll(() => rmSync(parent, { recursive: true, force: true }));
  if (SKIP_NPM_INSTALL) process.stderr.write('publish.test.ts: the install of the packed tarball is skipped because KUBEFORGE_SKIP_NPM_INSTALL=1\n');

  it('makes a project (init, create api, manifests) whose npm test passes', async () => {
    const { tarball } = await packOnce();
    const clean = join(parent, 'clean');
    mkdirSync(clean);
    // better-sqlite3's prebuilt binary as a user's install downloads it (this machine cannot reach GitHub).
    const mirror = await prebuiltBinaryMirror(join(parent, 'mirror'));
    try {
      await expectSuccess('publish', 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', tarball], clean, plainEnv(mirror.env));
    } finally {
      mirror.close();
    }
    const installed = join(clean, 'node_modules/kubeforge');
    // Only the dependencies: no dev dependency of kubeforge came along.
    for (const dev of ['typescript', 'jest', '@swc/core', 'eslint', 'ts-json-schema-generator']) expect({ dev, installed: existsSync(join(clean, 'node_modules', dev)) }).toEqual({ dev, installed: false });

    // The command npm linked for the install says the packed version; init below runs it through npx, from the
    // folder the tarball was installed into (one npx start: each costs 0.4 CPU-s before the command runs).
    expect((await expectSuccess('publish', join(clean, 'node_modules/.bin/kubeforge'), ['--version'], clean)).split('\n')[0]).toMatch(new RegExp(`^kubeforge:\\s+${ownPackage.version.replace(/\./g, '\\.')}$`));
    const project = join(parent, 'shop');
    mkdirSync(project);
    await expectSuccess('publish', 'npx', ['--no-install', 'kubeforge', 'init', '--root', project, '--domain', 'example.com', '--repo', 'shop-operator'], clean);
    const made = JSON.parse(readFileSync(join(project, 'package.json'), 'utf8')) as PackageJson;
    // An installed kubeforge (no checkout) writes the registry range by default.
    expect(made.dependencies.kubeforge).toBe(`^${ownPackage.version}`);

    // The made project's tools are linked from this checkout (no second install); kubeforge is the installed one.
    linkProjectDependencies(project, installed);
    expect(realpathSync(join(project, 'node_modules/kubeforge'))).toBe(realpathSync(installed));
    const kubeforge = join(project, 'node_modules/.bin/kubeforge');
    await expectSuccess('publish', kubeforge, ['create', 'api', '--group', 'shop', '--version', 'v1', '--kind', 'Cart'], project);
    await expectSuccess('publish', kubeforge, ['manifests'], project);
    expect(readFileSync(join(project, 'config/crd/bases/shop.example.com_carts.yaml'), 'utf8')).toContain('kind: CustomResourceDefinition');
    const test = await runCommand('npm', ['test'], project, plainEnv());
    expect({ code: test.code, summary: /Tests:\s+\d+ passed, \d+ total/.test(test.output), output: test.code === 0 ? '' : test.output }).toEqual({ code: 0, summary: true, output: '' });
  }, 600_000);
});
