/**
 * Images mapped to local builds (`kubeforge cluster start --image <name>=<project dir>`): which
 * container images the kubelet runs as a real Node.js process, and what the "image" says about how —
 * its ENTRYPOINT, CMD and USER, read from the project's Dockerfile (its last stage).
 *
 * Matching, as a kubelet resolves a reference: both sides are normalised as containerd reports them
 * (`controller` → `docker.io/library/controller:latest`, a missing tag is `:latest`); a reference
 * with a digest matches by repository and digest only (the runtime ignores the tag next to a digest),
 * so a mapping with a digest matches only that digest and a mapping without one matches tags only.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { imageReference } from './pod-status.js';

/** What a made project's image runs when its Dockerfile says nothing (the scaffold's ENTRYPOINT). */
export const defaultEntrypoint = ['node', '--enable-source-maps', 'dist/cmd/main.js'];

export interface LocalImage {
  /** The mapping's reference, normalised (`docker.io/library/controller:latest`). */
  reference: string;
  /** The project folder: the image's working directory. */
  projectDir: string;
  entrypoint: string[];
  cmd: string[];
  /** The Dockerfile's USER (`65532:65532`, `nonroot`), if any. */
  user?: string;
  /** `<repository>@sha256:…` as containerd reports imageID (a hash of the project path). */
  imageId: string;
}

interface ParsedReference {
  repository: string;
  tag?: string;
  digest?: string;
}

function parseReference(image: string): ParsedReference {
  const full = imageReference(image.trim());
  const at = full.indexOf('@');
  const digest = at === -1 ? undefined : full.slice(at + 1);
  const named = at === -1 ? full : full.slice(0, at);
  const tagMatch = /:([^:/]+)$/.exec(named);
  const repository = tagMatch ? named.slice(0, tagMatch.index) : named;
  return { repository, ...(tagMatch ? { tag: tagMatch[1]! } : {}), ...(digest ? { digest } : {}) };
}

/** Whether container image `image` is the mapped reference `mapped` (the rule in this module's comment). */
export function imageMatches(mapped: string, image: string): boolean {
  const a = parseReference(mapped);
  const b = parseReference(image);
  if (a.repository !== b.repository) return false;
  if (b.digest || a.digest) return a.digest === b.digest;
  return (a.tag ?? 'latest') === (b.tag ?? 'latest');
}

/** `controller:latest=./my-operator` → the image and the project folder; a clear error naming the flag. */
export function parseImageMapping(text: string, flag = '--image'): { image: string; projectDir: string } {
  const eq = text.lastIndexOf('=');
  const image = eq === -1 ? '' : text.slice(0, eq).trim();
  const dir = eq === -1 ? '' : text.slice(eq + 1).trim();
  if (!image || !dir) throw new Error(`${flag}: expected <image>=<project dir>, got ${JSON.stringify(text)}`);
  if (/\s/.test(image)) throw new Error(`${flag}: invalid image reference ${JSON.stringify(image)}`);
  return { image, projectDir: dir };
}

/** Dockerfile lines with `\` continuations joined and comments dropped. */
function instructions(text: string): Array<{ keyword: string; rest: string }> {
  const out: Array<{ keyword: string; rest: string }> = [];
  let pending = '';
  for (const raw of text.split(/\r?\n/)) {
    if (!pending && /^\s*#/.test(raw)) continue;
    const line = raw.replace(/\s+$/, '');
    if (line.endsWith('\\')) {
      pending += line.slice(0, -1) + ' ';
      continue;
    }
    const joined = (pending + line).trim();
    pending = '';
    const m = /^(\w+)\s+(.*)$/s.exec(joined);
    if (m) out.push({ keyword: m[1]!.toUpperCase(), rest: m[2]!.trim() });
  }
  return out;
}

/** ENTRYPOINT/CMD in exec form (a JSON array) or shell form (`/bin/sh -c "…"`). */
function commandForm(rest: string, where: string): string[] {
  if (rest.startsWith('[')) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(rest);
    } catch {
      throw new Error(`${where}: not a JSON array of strings: ${rest}`);
    }
    if (!Array.isArray(parsed) || parsed.some((p) => typeof p !== 'string')) throw new Error(`${where}: not a JSON array of strings: ${rest}`);
    return parsed as string[];
  }
  return ['/bin/sh', '-c', rest];
}

/** ENTRYPOINT, CMD and USER of the Dockerfile's last stage (what the image runs); undefined without a Dockerfile. */
export function readDockerfile(path: string): { entrypoint?: string[]; cmd?: string[]; user?: string } | undefined {
  if (!existsSync(path)) return undefined;
  const lines = instructions(readFileSync(path, 'utf8'));
  let stage: { entrypoint?: string[]; cmd?: string[]; user?: string } = {};
  lines.forEach((ins, i) => {
    const where = `${path}: ${ins.keyword} (instruction ${i + 1})`;
    if (ins.keyword === 'FROM') stage = {};
    else if (ins.keyword === 'ENTRYPOINT') {
      // a new ENTRYPOINT resets CMD, as docker build does
      stage = { ...stage, entrypoint: commandForm(ins.rest, where) };
      delete stage.cmd;
    } else if (ins.keyword === 'CMD') stage = { ...stage, cmd: commandForm(ins.rest, where) };
    else if (ins.keyword === 'USER') stage = { ...stage, user: ins.rest };
  });
  return stage;
}

/** The images of a cluster mapped to local project folders. */
export class LocalImages {
  private readonly images: LocalImage[];

  /** `mapping`: image reference → project folder; each folder must exist. */
  constructor(mapping: Record<string, string> = {}) {
    this.images = Object.entries(mapping).map(([image, dir]) => {
      const projectDir = resolve(dir);
      if (!existsSync(projectDir) || !statSync(projectDir).isDirectory()) throw new Error(`image ${image}: project folder ${projectDir} does not exist`);
      const dockerfile = readDockerfile(join(projectDir, 'Dockerfile'));
      const reference = imageReference(image);
      const repository = parseReference(image).repository;
      const digest = createHash('sha256').update(projectDir).digest('hex');
      const entrypoint = dockerfile?.entrypoint ?? (dockerfile?.cmd ? [] : defaultEntrypoint);
      return {
        reference,
        projectDir,
        entrypoint,
        cmd: dockerfile?.cmd ?? [],
        ...(dockerfile?.user ? { user: dockerfile.user } : {}),
        imageId: `${repository}@sha256:${digest}`,
      };
    });
  }

  get size(): number {
    return this.images.length;
  }

  /** The local build a container image names (the first mapping that matches), or undefined. */
  find(image: string | undefined): LocalImage | undefined {
    if (!image) return undefined;
    return this.images.find((i) => imageMatches(i.reference, image));
  }
}
