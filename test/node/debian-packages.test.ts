import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { scratchDir } from './processes.js';

// A fresh machine has only what the README's install line brings. The sites beside esign-proxy load
// Debian's packages: what each of them really loads (Python's modules, Ruby's features, Go's
// sources) is traced to the package that owns its file, and each such package must be in the
// README's line, or brought by one in it (its Depends, Pre-Depends and Recommends, which apt-get
// installs too, as dpkg records them).

const ROOT = new URL('../../', import.meta.url).pathname;
const RECIPES = join(ROOT, 'examples/any-stack');
const SITE_ENV = {
  PORT: '8080',
  PUBLIC_URL: 'https://site.example',
  ESIGN_OIDC_ISSUER: 'https://site.example/esign/oidc',
  OIDC_CLIENT_ID: 'site',
  OIDC_CLIENT_SECRET: 'the-client-secret-of-the-packages-test',
  ESIGN_WEBHOOK_SECRET: `whsec_${Buffer.from('the-packages-test-webhook-secret!').toString('base64')}`,
  SESSION_SECRET: 'the-packages-test-session-secret',
  DJANGO_SECRET_KEY: 'the-packages-test-django-secret-key-0123456789',
};

/** The packages of the README's install line. */
function readmeLine(): string[] {
  const readme = readFileSync(join(ROOT, 'README.md'), 'utf8');
  const line = /apt-get install -y ([^&]+)&&/.exec(readme)?.[1];
  assert.ok(line, "the README's install line");
  return line.trim().split(/\s+/);
}

/** The installed packages' Depends, Pre-Depends and Recommends (every alternative), and what provides each virtual name. */
function dependencyGraph(): { depends: Map<string, string[]>; providers: Map<string, string[]> } {
  const text = execFileSync('dpkg-query', ['-W', '-f', '${db:Status-Status}\t${Package}\t${Depends}, ${Pre-Depends}, ${Recommends}\t${Provides}\n'], {
    encoding: 'utf8',
  });
  const depends = new Map<string, string[]>();
  const providers = new Map<string, string[]>();
  const names = (field: string) =>
    field
      .split(/[,|]/)
      .map((part) =>
        part
          .trim()
          .replace(/\s*\(.*\)$/, '')
          .replace(/:any$/, ''),
      )
      .filter(Boolean);
  for (const row of text.split('\n')) {
    const [status, name, deps = '', provides = ''] = row.split('\t');
    if (status !== 'installed' || !name) continue;
    depends.set(name, names(deps));
    for (const virtual of names(provides)) providers.set(virtual, [...(providers.get(virtual) ?? []), name]);
  }
  return { depends, providers };
}

/** Every package the given ones bring, themselves included. */
function closure(roots: string[]): Set<string> {
  const { depends, providers } = dependencyGraph();
  const seen = new Set<string>();
  const queue = [...roots];
  while (queue.length) {
    const name = queue.pop()!;
    if (seen.has(name)) continue;
    seen.add(name);
    queue.push(...(depends.get(name) ?? []), ...(providers.get(name) ?? []));
  }
  return seen;
}

/** The packages owning these files or folders (dpkg -S); a file no package owns is none of Debian's. */
function owners(paths: string[]): Map<string, string> {
  const owned = new Map<string, string>();
  for (let i = 0; i < paths.length; i += 200) {
    const batch = paths.slice(i, i + 200);
    let text = '';
    try {
      text = execFileSync('dpkg', ['-S', ...batch], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
    } catch (error) {
      // dpkg -S exits 1 when one path is owned by none: what it found is still on its stdout
      text = String((error as { stdout?: string }).stdout ?? '');
    }
    for (const row of text.split('\n')) {
      const colon = row.indexOf(': ');
      if (colon < 0) continue;
      for (const name of row.slice(0, colon).split(', ')) owned.set(name.replace(/:[a-z0-9]+$/, ''), row.slice(colon + 2));
    }
  }
  return owned;
}

/** Python: the files of every module a site's process loads (the recipe as its server imports it, and the server). */
function pythonLoads(recipe: string, servers: string[]): string[] {
  const script = `import importlib, json, runpy, sys
runpy.run_path(sys.argv[1], run_name="esign_loaded")
for name in sys.argv[2:]: importlib.import_module(name)
print(json.dumps(sorted({m.__file__ for m in list(sys.modules.values()) if getattr(m, "__file__", None)})))`;
  const out = execFileSync('/usr/bin/python3', ['-c', script, recipe, ...servers], {
    env: { ...process.env, ...SITE_ENV, SITE_DB: join(scratchDir('esign-packages-'), 'site.sqlite'), SITE_DIR: scratchDir('esign-packages-') },
    encoding: 'utf8',
  });
  return JSON.parse(out) as string[];
}

/** Ruby: every feature the site's file loads. */
function rubyLoads(app: string): string[] {
  const out = execFileSync('ruby', ['-e', 'load ARGV[0]; puts $LOADED_FEATURES', app], {
    env: { ...process.env, ...SITE_ENV, SITE_DIR: scratchDir('esign-packages-') },
    encoding: 'utf8',
  });
  return out.split('\n').filter((line) => line.startsWith('/'));
}

/** Go: the folders of every package the site is built from, Debian's GOPATH as its test builds it. */
function goLoads(main: string): string[] {
  const out = execFileSync('go', ['list', '-deps', '-f', '{{if not .Standard}}{{.Dir}}{{end}}', main], {
    env: { ...process.env, GO111MODULE: 'off', GOPATH: '/usr/share/gocode', GOCACHE: join(scratchDir('esign-gocache-'), 'cache') },
    encoding: 'utf8',
  });
  return out.split('\n').filter((line) => line.startsWith('/usr/'));
}

const STACKS: { name: string; loads: () => string[]; expect: string }[] = [
  {
    name: 'django (runserver, and gunicorn)',
    loads: () => pythonLoads(join(RECIPES, 'django/recipe.py'), ['django.core.management.commands.runserver', 'gunicorn.app.wsgiapp']),
    expect: 'python3-django',
  },
  { name: 'fastapi (uvicorn)', loads: () => pythonLoads(join(RECIPES, 'fastapi/app.py'), ['uvicorn.main']), expect: 'python3-fastapi' },
  { name: 'ruby (sinatra, omniauth)', loads: () => rubyLoads(join(RECIPES, 'ruby/app.rb')), expect: 'ruby-sinatra' },
  { name: 'rails (omniauth, its CSRF protection, webrick)', loads: () => rubyLoads(join(RECIPES, 'rails/app.rb')), expect: 'ruby-railties' },
  { name: 'go (go-oidc, oauth2)', loads: () => goLoads(join(RECIPES, 'go/main.go')), expect: 'golang-github-coreos-go-oidc-dev' },
];

describe("the README's install line brings every Debian package the sites load", () => {
  const brought = closure(readmeLine());
  for (const stack of STACKS) {
    it(`${stack.name}: each package it loads is in the line or brought by one in it`, () => {
      const loaded = owners(stack.loads());
      assert.ok(loaded.has(stack.expect), `the trace finds ${stack.expect}: ${[...loaded.keys()].join(', ')}`);
      const missing = [...loaded.entries()].filter(([name]) => !brought.has(name)).map(([name, file]) => `${name} (${file})`);
      assert.deepEqual(missing, [], "packages the README's line does not bring");
    });
  }
});
