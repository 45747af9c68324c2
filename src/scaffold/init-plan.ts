/**
 * `kubeforge init`: plans a new operator project in kubebuilder's go/v4 layout, for TypeScript — PROJECT,
 * package and compiler settings, the manager entry point, the Makefile and Dockerfile, config/ for
 * kustomize, a test/e2e skeleton with test/utils, and kubebuilder v4's tooling: GitHub workflows (test, lint,
 * e2e), a devcontainer, eslint and prettier configs. Names are checked first; nothing is written here.
 */
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { checkAll, checkDomain, checkProjectName, checkRepo, packageNameOf, projectNameFrom, ScaffoldInputError } from './names.js';
import { ScaffoldPlan } from './plan.js';
import { PROJECT_LAYOUT, PROJECT_PATH, renderProjectFile, type ProjectConfig } from './project-file.js';
import { render, renderBundle } from './render.js';
import { kubeforgeDependency, toolVersions } from './kubeforge-dependency.js';
import { boilerplateOf } from './boilerplate.js';

export type License = 'none' | 'apache2';

export interface InitOptions {
  root: string;
  domain: string;
  repo: string;
  projectName?: string;
  owner?: string;
  license?: License;
  multigroup?: boolean;
  force?: boolean;
  /** package.json's kubeforge dependency spec (`--kubeforge-dependency`); default: see kubeforgeDependency. */
  kubeforgeDependency?: string;
  /** The year in the license header; default this year. */
  year?: number;
}

/** A folder that already holds a project: init refuses it in one line, before looking at anything else. */
export class ProjectExistsError extends Error {
  constructor(root: string) {
    super(`${root} already holds a project (its ${PROJECT_PATH} exists); nothing was written (use --force to scaffold over it)`);
    this.name = 'ProjectExistsError';
  }
}

/** Checks every flag (all failures at once), then plans every file of a new project. */
export function planInit(options: InitOptions): ScaffoldPlan {
  const root = resolve(options.root);
  if (!options.force && existsSync(join(root, PROJECT_PATH))) throw new ProjectExistsError(root);
  const projectName = options.projectName ?? projectNameFrom(basename(root));
  const license = options.license ?? 'apache2';
  checkAll([
    () => checkDomain(options.domain),
    () => checkRepo(options.repo),
    () => checkProjectName(projectName),
    () => {
      if (license !== 'none' && license !== 'apache2') throw new ScaffoldInputError('--license', license, 'must be "none" or "apache2"');
    },
  ]);
  const packageName = packageNameOf(options.repo);

  const plan = new ScaffoldPlan(root, options.force ?? false);
  const owner = options.owner ?? 'The ' + projectName + ' Authors';
  const boilerplate = boilerplateOf(license, owner, options.year ?? new Date().getUTCFullYear());
  const values = {
    projectName,
    domain: options.domain,
    // The templates' `repo` is the npm package name (package.json); PROJECT keeps --repo as given below.
    repo: packageName,
    boilerplate,
    packageLicense: license === 'apache2' ? 'Apache-2.0' : 'UNLICENSED',
    kubeforgeDependency: kubeforgeDependency(root, options.kubeforgeDependency),
    versions: toolVersions(),
    leaderElectionId: `${projectName}-leader.${options.domain}`,
  };

  const config: ProjectConfig = {
    cliVersion: values.versions.kubeforgeVersion,
    domain: options.domain,
    layout: [PROJECT_LAYOUT],
    ...(options.multigroup ? { multigroup: true } : {}),
    projectName,
    repo: options.repo,
    resources: [],
    version: '3',
  };
  plan.create(PROJECT_PATH, renderProjectFile(config));
  const files: Array<[string, string]> = [
    ['package.json', 'init/package.json'],
    ['tsconfig.json', 'init/tsconfig.json'],
    ['tsconfig.build.json', 'init/tsconfig.build.json'],
    ['jest.config.js', 'init/jest.config.js'],
    ['.gitignore', 'init/gitignore'],
    ['.dockerignore', 'init/dockerignore'],
    ['.npmrc', 'init/npmrc'],
    ['README.md', 'init/README.md'],
    ['Makefile', 'init/Makefile'],
    ['Dockerfile', 'init/Dockerfile'],
    ['cmd/main.ts', 'init/main.ts'],
    ['cmd/run-local.ts', 'init/run-local.ts'],
    ['internal/controller/index.ts', 'init/controller-index.ts'],
    ['test/e2e/e2e.test.ts', 'init/e2e.test.ts'],
    ['test/utils/utils.ts', 'init/test-utils.ts'],
    ['eslint.config.mjs', 'init/eslint.config.mjs'],
    ['.prettierrc.json', 'init/prettierrc.json'],
    ['.prettierignore', 'init/prettierignore'],
    ['config/crd/kustomization.yaml', 'init/config/crd-kustomization.yaml'],
    ['config/rbac/kustomization.yaml', 'init/config/rbac-kustomization.yaml'],
    ['config/samples/kustomization.yaml', 'init/config/samples-kustomization.yaml'],
  ];
  for (const [path, template] of files) plan.create(path, render(template, values));
  if (license === 'apache2') plan.create('hack/boilerplate.ts.txt', boilerplate);
  const bundles: Array<[string, string]> = [
    ['config/rbac', 'init/config/rbac.yaml'],
    ['config/manager', 'init/config/manager.yaml'],
    ['config/default', 'init/config/default.yaml'],
    ['config/prometheus', 'init/config/prometheus.yaml'],
    ['config/network-policy', 'init/config/network-policy.yaml'],
    ['.github', 'init/github.yaml'],
    ['.devcontainer', 'init/devcontainer.yaml'],
  ];
  for (const [folder, template] of bundles) {
    for (const [name, content] of renderBundle(template, values)) plan.create(`${folder}/${name}`, content);
  }
  return plan;
}
