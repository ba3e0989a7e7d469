import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { isAbsolute, join, relative } from 'node:path';

export interface Instruction {
  keyword: string;
  args: string;
}

/** A Dockerfile's instructions: comments dropped, `\` continuations joined. */
export function parseDockerfile(text: string): Instruction[] {
  const joined = text.replace(/\\\r?\n/g, ' ');
  return joined
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '' && !line.startsWith('#'))
    .map((line) => {
      const [keyword] = line.split(/\s+/);
      return { keyword: keyword!.toUpperCase(), args: line.slice(keyword!.length).trim() };
    });
}

export interface Stage {
  from: string;
  name?: string;
  /** The stage's file system, a folder standing in for `/`. */
  root: string;
  workdir: string;
  env: Record<string, string>;
  user: string;
  entrypoint?: string[];
}

/**
 * Builds a Dockerfile without a container engine, for a test: each stage's `/` is a fresh folder;
 * WORKDIR, COPY (from the context, minus .dockerignore, or --from a stage) and ENV are applied to it,
 * and RUN commands run there with bash, npm's global prefix set to the stage's /usr/local and its cache
 * to the host's (what a `--mount=type=cache` gives). The base image is not fetched: its Node is the one in
 * `nodeBin` (first on PATH, the same major version as the image's), else the host's. Throws on the first failing RUN.
 */
export function buildWithoutEngine(dockerfile: string, context: string, nodeBin?: string): Stage[] {
  const ignored = readIgnore(context);
  const stages: Stage[] = [];
  const sandbox = mkdtempSync(join(tmpdir(), 'conform-image-'));
  let stage: Stage | undefined;
  const at = (path: string) => join(stage!.root, isAbsolute(path) ? path : join(stage!.workdir, path));
  for (const { keyword, args } of parseDockerfile(readFileSync(dockerfile, 'utf8'))) {
    if (keyword === 'FROM') {
      const [from, as, name] = args.split(/\s+/);
      stage = {
        from: from!,
        ...(as?.toUpperCase() === 'AS' ? { name: name! } : {}),
        root: join(sandbox, `stage-${stages.length}`),
        workdir: '/',
        env: {},
        user: 'root',
      };
      mkdirSync(join(stage.root, 'usr', 'local'), { recursive: true });
      stages.push(stage);
      continue;
    }
    if (!stage) throw new Error(`${keyword} before FROM`);
    switch (keyword) {
      case 'WORKDIR':
        stage.workdir = isAbsolute(args) ? args : join(stage.workdir, args);
        mkdirSync(at('.'), { recursive: true });
        break;
      case 'ENV':
        for (const [, key, value] of args.matchAll(/(\w+)=(\S+)/g)) stage.env[key!] = value!;
        break;
      case 'COPY': {
        const words = args.split(/\s+/);
        const from = words.find((w) => w.startsWith('--from='))?.slice('--from='.length);
        const [source, destination] = words.filter((w) => !w.startsWith('--'));
        const origin = from === undefined ? context : stages.find((s) => s.name === from)?.root;
        if (!origin) throw new Error(`COPY --from=${from}: no such stage`);
        const sourcePath = from === undefined ? join(context, source!) : join(origin, source!);
        const target =
          destination!.endsWith('/') || destination === '.' ? join(at(destination!), source === '.' ? '' : source!.split('/').pop()!) : at(destination!);
        cpSync(sourcePath, target, {
          recursive: true,
          filter: (path) => from !== undefined || !ignored.some((pattern) => pattern.test(relative(context, path))),
        });
        break;
      }
      case 'RUN': {
        const command = args.replace(/^(--\S+\s+)+/, '');
        const result = spawnSync('bash', ['-ec', command], {
          cwd: at('.'),
          encoding: 'utf8',
          env: {
            ...process.env,
            ...stage.env,
            PATH: [join(stage.root, 'usr/local/bin'), ...(nodeBin ? [nodeBin] : []), process.env.PATH ?? ''].join(':'),
            npm_config_prefix: join(stage.root, 'usr/local'),
            npm_config_prefer_offline: 'true',
            npm_config_loglevel: 'error',
          },
        });
        if (result.status !== 0) throw new Error(`RUN ${command} exited ${result.status}:\n${result.stdout}\n${result.stderr}`);
        break;
      }
      case 'USER':
        stage.user = args;
        break;
      case 'ENTRYPOINT':
        stage.entrypoint = JSON.parse(args) as string[];
        break;
      default:
        throw new Error(`the test cannot build ${keyword}`);
    }
  }
  return stages;
}

function readIgnore(context: string): RegExp[] {
  const file = join(context, '.dockerignore');
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l !== '' && !l.startsWith('#'))
    .map((pattern) => new RegExp(`^${pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}(/|$)`));
}
