import { after, before, describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { REGISTRY } from '../../src/registry.js';
import puppeteer from 'puppeteer-core';
import { createServer } from 'vite';
import { samplePdf } from 'esign-sandbox/sample-pdf';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '../../scripts/chromium.js';
import { b64, send } from './harness.js';
import { en } from '../../src/i18n/en.js';

const run = promisify(execFile);
const ROOT = new URL('../../', import.meta.url).pathname;

interface PackedFile {
  path: string;
}

/** `npm pack` of one package into a folder; the tarball's name and the files it holds. */
async function pack(workspace: string | null, into: string): Promise<{ tarball: string; files: string[] }> {
  // --ignore-scripts: the build `npm test` made is what is packed (prepack builds for a stranger's `npm pack`)
  const args = ['pack', '--json', '--ignore-scripts', '--pack-destination', into, ...(workspace ? ['-w', workspace] : [])];
  const { stdout } = await run('npm', args, { cwd: ROOT, maxBuffer: 16 * 1024 * 1024 });
  const [info] = JSON.parse(stdout) as [{ filename: string; files: PackedFile[] }];
  return { tarball: join(into, info.filename), files: info.files.map((f) => f.path) };
}

// What a host installs is what is tested: both packages packed, installed into an empty app.
describe('the packed packages installed into an empty app', () => {
  let dir = '';
  let widget: { tarball: string; files: string[] };
  let sandbox: { tarball: string; files: string[] };

  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'esign-install-'));
    widget = await pack(null, dir);
    sandbox = await pack('esign-sandbox', dir);
    const app = join(dir, 'app');
    await run('mkdir', ['-p', app]);
    writeFileSync(join(app, 'package.json'), JSON.stringify({ name: 'host-app', private: true, type: 'module' }));
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', widget.tarball, sandbox.tarball], {
      cwd: app,
      env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' },
      maxBuffer: 16 * 1024 * 1024,
    });
  });

  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('the widget tarball holds the build, no sources, tests or sandbox', () => {
    assert.ok(widget.files.includes('dist/cdn/esign-elements.js'));
    assert.ok(widget.files.includes('dist/cdn/integrity.json'), "the script-tag files' digests are packed");
    for (const doc of ['CHANGELOG.md', 'docs/any-stack.md', 'docs/proxy.md', 'docs/elements.md'])
      assert.ok(widget.files.includes(doc), `${doc} ships in the package`);
    assert.ok(!widget.files.some((file) => file.endsWith('.png')), 'no screenshots in the package');
    // the PHP proxy package, whole with its rules (a host copies it, or names it as a Composer path repository), and the rules alone
    for (const file of [
      'dist/proxy-rules.json',
      'dist/webhook-delivery.schema.json',
      'bin/esign-proxy.js',
      'dist/proxies/php/composer.json',
      'dist/proxies/php/proxy.php',
      'dist/proxies/php/session-recipe.php',
      'dist/proxies/php/src/Proxy.php',
      'dist/proxies/php/src/autoload.php',
      'dist/proxies/php/proxy-rules.json',
    ]) {
      assert.ok(widget.files.includes(file), `${file} is packed`);
    }
    assert.ok(widget.files.includes('custom-elements.json'));
    // (docs/sandbox.md, the page on the sandbox package, is a doc like the others)
    const foreign = widget.files.filter(
      (f) => /^(src|test|sandbox|demo|bench|examples)\/|\.ts$(?<!\.d\.ts$)/.test(f) || (/sandbox/.test(f) && f !== 'docs/sandbox.md'),
    );
    assert.deepEqual(foreign, []);
  });

  it('each element has a script-tag file that imports nothing statically, and loads on demand only its languages and what it needs (the preview, a phone-message check, a kept session)', () => {
    const elementFiles = widget.files.filter((f) => /^dist\/cdn\/esign-(?!elements|client\.js)[a-z-]+\.js$/.test(f)).sort();
    assert.deepEqual(elementFiles.map((f) => f.slice('dist/cdn/esign-'.length, -3)).sort(), REGISTRY.map((entry) => entry.name).sort());
    const languages = widget.files.filter((f) => /^dist\/cdn\/esign-elements-(lt|en|lv|et|ru)-(form|session|documents)\.js$/.test(f));
    // each of the five languages in two parts loaded on first use, named without a hash (a page may
    // preload its own); the form's words come with the person form, never as a file
    assert.deepEqual(
      languages.map((f) => /-(\w\w-\w+)\.js$/.exec(f)![1]).sort(),
      ['en', 'et', 'lt', 'lv', 'ru'].flatMap((l) => [`${l}-documents`, `${l}-session`]),
    );
    const engine = widget.files.filter((f) => /^dist\/cdn\/esign-elements-engine-[\w-]+\.js$/.test(f));
    assert.equal(engine.length, 1, 'one preview engine');
    const entryOf = (file: string) => REGISTRY.find((entry) => file === `dist/cdn/esign-${entry.name}.js`);
    const previews = elementFiles.filter((file) => entryOf(file)?.onDemand?.includes('viewer'));
    const viewers = widget.files.filter((f) => /^dist\/cdn\/esign-elements-viewer-[\w-]+\.js$/.test(f));
    assert.equal(viewers.length, previews.length + 1, 'a preview viewer for each file with the preview, and one for the all-in-one file');
    const read = (file: string) => readFileSync(join(dir, 'app/node_modules/esign-elements', file), 'utf8');
    const loadedBy = (code: string) => [...code.matchAll(/import\(["'`]\.\/([^"'`]+)["'`]\)/g)].map((m) => `dist/cdn/${m[1]}`).sort();
    for (const file of elementFiles) {
      const code = read(file);
      assert.doesNotMatch(code, /(?:\bfrom|\bimport)\s*["'`]/, `${file} imports another file statically`);
      const loaded = loadedBy(code);
      // on demand, beside the languages: the preview's viewer; a host's phone-message check, following a
      // kept session and the time left after a rate limit; a validation's signatures
      const expected: string[] = [...(entryOf(file)?.onDemand ?? [])];
      const onDemand = loaded.filter((f) => !languages.includes(f));
      // a session element draws its form with the words in its own file, whatever the language
      const carriesFormWords = entryOf(file)?.formWords === true;
      if (carriesFormWords)
        assert.ok(
          ['Asmens kodas', 'Personal code', 'Isikukood'].every((word) => code.includes(word)),
          `${file} carries its form's words`,
        );
      const languagesLoaded = languages;
      assert.deepEqual(
        onDemand.map((f) => /esign-elements-([a-z.-]+?)-[\w-]{8}\.js$/.exec(f)?.[1]).sort(),
        expected.sort(),
        `${file} loads the language parts and ${expected.join(', ') || 'nothing else'} on demand`,
      );
      assert.deepEqual(
        loaded,
        [...languagesLoaded, ...onDemand].sort(),
        `${file} loads ${carriesFormWords ? 'the session and document parts, its form words inside' : 'every language part'}`,
      );
      // an element's own file runs whole as the page loads: Chromium may compile it while it streams in;
      // the all-in-one file (few of its elements on a page) and what loads later are compiled as used
      const hint = '//# allFunctionsCalledOnLoad\n';
      assert.ok(code.startsWith(hint), `${file}: the compile hint on the first line of an element's own file`);
      for (const chunk of onDemand) {
        // each takes Lit and the rest from the file that loaded it
        const chunkCode = read(chunk);
        assert.ok(!chunkCode.includes('allFunctionsCalledOnLoad'), `${chunk} loads later: no compile hint`);
        assert.deepEqual(
          [...chunkCode.matchAll(/\bfrom\s*["'`]\.\/([^"'`]+)["'`]/g)].map((m) => `dist/cdn/${m[1]}`),
          [file],
          `${chunk} imports from ${file} alone`,
        );
        if (chunk.includes('-viewer-')) assert.deepEqual(loadedBy(chunkCode), engine, `${chunk} loads the engine on demand`);
      }
    }
    // the engine brings PDF.js from beside it, and PDF.js its worker
    const engineCode = readFileSync(join(dir, 'app/node_modules/esign-elements', engine[0]!), 'utf8');
    assert.deepEqual(
      [...engineCode.matchAll(/\bfrom\s*["'`]\.\/([^"'`]+)["'`]/g)].map((m) => m[1]),
      ['esign-elements-pdf.js'],
    );
    for (const dir of ['dist/cdn', 'dist/elements/document-preview']) {
      for (const name of ['esign-elements-pdf.js', 'esign-elements-pdf-worker.js']) assert.ok(widget.files.includes(`${dir}/${name}`), `${dir}/${name} packed`);
    }
  });

  it('the all-in-one file holds the login and imports nothing statically; every other element, its languages and the rest load on demand, taking Lit and the rest from it', () => {
    const read = (file: string) => readFileSync(join(dir, 'app/node_modules/esign-elements', file), 'utf8');
    const exists = (file: string) => widget.files.includes(file);
    const entry = 'dist/cdn/esign-elements.js';
    const code = read(entry);
    assert.doesNotMatch(code, /(?:\bfrom|\bimport)\s*["'`]/, 'the all-in-one file imports another file statically');
    assert.ok(!code.startsWith('//# allFunctionsCalledOnLoad'), 'no compile hint: a page draws few of its elements');
    // the client is a file of its own (a login page loads this one before its form): the errors come with the elements
    assert.doesNotMatch(code, /as EsignClient\b/, 'the all-in-one file does not export the client');
    assert.match(code, /as EsignError\b/, "it exports the elements' errors");
    // the login's form draws from this file alone, in every language
    assert.ok(
      ['Asmens kodas', 'Personal code', 'Isikukood'].every((word) => code.includes(word)),
      'the form words are inside',
    );
    const loadedBy = (text: string) => [...text.matchAll(/import\(["'`]\.\/([^"'`]+)["'`]\)/g)].map((m) => `dist/cdn/${m[1]}`);
    const staticOf = (text: string) => [...text.matchAll(/\bfrom\s*["'`]\.\/([^"'`]+)["'`]/g)].map((m) => `dist/cdn/${m[1]}`);
    // the control code and the status are asked for by the login too: one file each
    const onDemand = [...new Set(loadedBy(code))];
    const kinds = onDemand.map((f) => /esign-elements-([a-z-]+?)(?:-[\w-]{8})?\.js$/.exec(f)?.[1]).sort();
    const languages = ['en', 'et', 'lt', 'lv', 'ru'].flatMap((l) => [`${l}-documents`, `${l}-session`]);
    // every element but the login's own, each when it appears; the session's later part and the phone-message check
    const later = [
      'control-code',
      'document',
      'document-preview',
      'document-upload',
      'hash-sign',
      'sign',
      'signer-list',
      'signing-link',
      'status',
      'validation-report',
    ];
    // and an OpenID Connect login's continuation, only where the element is given one
    assert.deepEqual(kinds, [...languages, ...later, 'continue-login', 'phone-message', 'session-controller'].sort());
    // what those load, statically or on demand, comes from the same build: they import the entry, never a file of their own Lit
    const seen = new Set<string>();
    const visit = (file: string) => {
      if (seen.has(file)) return;
      seen.add(file);
      assert.ok(exists(file), `${file}, named by the all-in-one build, is packed`);
      const text = read(file);
      for (const next of [...staticOf(text), ...loadedBy(text)]) {
        assert.match(next, /^dist\/cdn\/esign-elements[\w.-]*\.js$/, `${file} imports ${next}, outside the all-in-one build`);
        if (!/esign-elements-pdf/.test(next)) visit(next);
      }
    };
    for (const file of onDemand) visit(file);
    const elementChunks = onDemand.filter((f) => later.some((name) => new RegExp(`esign-elements-${name}-[\\w-]{8}\\.js$`).test(f)));
    assert.equal(elementChunks.length, later.length);
    for (const file of elementChunks) {
      const imports = staticOf(read(file));
      assert.ok(imports.includes(entry), `${file} takes Lit and the rest from the all-in-one file`);
    }
    // Lit is inside the entry, once: no chunk it loads carries lit-html's version list again
    assert.ok(code.includes('litHtmlVersions'), 'Lit is inside the all-in-one file');
    assert.deepEqual(
      [...seen].filter((file) => file !== entry && read(file).includes('litHtmlVersions')),
      [],
      'no chunk brings Lit again',
    );
  });

  it("the client's script-tag file is whole in itself: the client, its errors and the file helpers", async () => {
    const file = join(dir, 'app/node_modules/esign-elements/dist/cdn/esign-client.js');
    assert.doesNotMatch(readFileSync(file, 'utf8'), /(?:\bfrom|\bimport)\s*["'`(]/, 'it imports nothing');
    const client = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
    for (const name of ['EsignClient', 'EsignError', 'ProxyCaller', 'poll', 'OPERATIONS', 'blobToBase64', 'base64ToBlob'])
      assert.equal(typeof client[name], name === 'OPERATIONS' ? 'object' : 'function', name);
  });

  it('each script-tag file carries the paths of the operations its elements send, and no other', () => {
    const session = (kind: string) => [`/mobile/${kind}`, `/smartid/${kind}`];
    // the session controller (one for the three session elements) polls a session's status by the
    // protocol's table of kinds, and removes a cancelled one: those paths come with every session element
    const controller = [
      '/api/mobile/session/{sessionId}',
      '/api/smartid/session/{sessionId}',
      '/mobile/status/{token}.json',
      '/smartid/status/{token}.json',
      '/mobile/sign/status/{token}.json',
      '/smartid/sign/status/{token}.json',
      '/mobile/sign-hash/status/{token}.json',
      '/smartid/sign/hash/status/{token}.json',
    ];
    const login = [...session('login.json'), ...controller];
    const sign = [...session('sign.json'), ...controller];
    const hash = [...session('sign/hash.json'), ...controller];
    const signers = [
      '/api/document/{documentId}/signers.json',
      '/api/document/{documentId}/invite-signer.json',
      '/api/document/{documentId}/remove-temporary-signer.json',
    ];
    const report = ['/api/v2/document/{documentId}/validation.json', '/api/v2/document/validation.json'];
    const link = ['/api/document/generate-temporary-signing-link.json'];
    const expected: Record<string, string[]> = {
      identify: login,
      sign,
      'hash-sign': hash,
      'person-form': [],
      'control-code': [],
      status: [],
      'document-preview': [],
      'document-upload': ['/api/document/upload.json'],
      'signer-list': signers,
      'validation-report': report,
      'signing-link': link,
      document: [
        '/api/document/{documentId}/check-status.json',
        '/api/document/{documentId}/download.json',
        '/api/document/{documentId}/remove.json',
        ...signers,
        ...report,
        ...link,
      ],
    };
    const pathsIn = (code: string) => new Set([...code.matchAll(/["'`](\/(?:api|mobile|smartid)\/[\w/{}.-]*?(?:\.json|\{\w+\}))["'`]/g)].map((m) => m[1]!));
    for (const [element, paths] of Object.entries(expected)) {
      const code = readFileSync(join(dir, 'app/node_modules/esign-elements/dist/cdn', `esign-${element}.js`), 'utf8');
      assert.deepEqual([...pathsIn(code)].sort(), [...paths].sort(), `esign-${element}.js`);
    }
    // every operation in the file with every element (its chunks share the table), and in the client's file
    const every = readFileSync(join(dir, 'app/node_modules/esign-elements/dist/cdn/esign-elements.js'), 'utf8');
    assert.equal(pathsIn(every).size, 24);
    const client = readFileSync(join(dir, 'app/node_modules/esign-elements/dist/cdn/esign-client.js'), 'utf8');
    assert.equal(pathsIn(client).size, 24);
  });

  it('the sandbox tarball holds its build and CLI, nothing of the widget', () => {
    assert.ok(sandbox.files.includes('bin/esign-sandbox.js'));
    assert.ok(sandbox.files.includes('dist/index.js'));
    const foreign = sandbox.files.filter((f) => !/^(dist\/|bin\/|package\.json$|README\.md$)/.test(f) || /\.ts$(?<!\.d\.ts$)/.test(f));
    assert.deepEqual(foreign, []);
  });

  it("lit is the widget's only runtime dependency", async () => {
    const manifest = JSON.parse(readFileSync(join(dir, 'app/node_modules/esign-elements/package.json'), 'utf8')) as Record<string, unknown>;
    assert.deepEqual(Object.keys(manifest['dependencies'] as object), ['lit']);
    // the whole tree the widget brings is Lit's own
    const { stdout } = await run('npm', ['ls', '--all', '--json', '--omit=dev', 'esign-elements'], { cwd: join(dir, 'app') });
    const names = new Set<string>();
    const walk = (node: { dependencies?: Record<string, object> }) => {
      for (const [name, child] of Object.entries(node.dependencies ?? {})) {
        names.add(name);
        walk(child);
      }
    };
    walk((JSON.parse(stdout) as { dependencies: Record<string, { dependencies?: Record<string, object> }> }).dependencies['esign-elements']!);
    for (const name of names) assert.match(name, /^(lit|lit-html|lit-element|@lit\/.*|@lit-labs\/.*|@types\/trusted-types)$/, `unexpected dependency ${name}`);
  });

  it("imports every entry point of both packages in Node (React's with the optional peers a React host adds)", async () => {
    const app = join(dir, 'app');
    await run('npm', ['install', '--no-audit', '--no-fund', '--prefer-offline', 'react@19', '@lit/react@1'], { cwd: app, maxBuffer: 16 * 1024 * 1024 });
    for (const name of ['esign-elements', 'esign-sandbox']) {
      const manifest = JSON.parse(readFileSync(join(app, 'node_modules', name, 'package.json'), 'utf8')) as { exports: Record<string, unknown> };
      const entries = Object.keys(manifest.exports).filter((key) => !/\.json$|^\.\/cdn|^\.\/(vscode|web-types)/.test(key));
      assert.ok(entries.length >= 3);
      const script = entries.map((key) => `await import(${JSON.stringify(key === '.' ? name : `${name}/${key.slice(2)}`)});`).join('\n');
      const { stdout } = await run(process.execPath, ['--input-type=module', '-e', `${script}\nconsole.log('imported ${entries.length}')`], { cwd: app });
      assert.equal(stdout.trim(), `imported ${entries.length}`);
    }
  });

  it('each entry a page imports brings the types of what it defines (its tags and their events), and the packed declarations compile with skipLibCheck off', async () => {
    const app = join(dir, 'app');
    const manifest = JSON.parse(readFileSync(join(app, 'node_modules/esign-elements/package.json'), 'utf8')) as { exports: Record<string, unknown> };
    const tags = Object.keys(manifest.exports)
      .map((key) => key.slice(2))
      .filter((name) => existsSync(join(app, `node_modules/esign-elements/dist/elements/${name}/define.d.ts`)));
    assert.ok(tags.length >= 12, tags.join(', '));
    const tsc = fileURLToPath(new URL('../../node_modules/typescript/bin/tsc', import.meta.url));
    for (const entry of [...tags, 'define']) {
      const tag = entry === 'define' ? 'identify' : entry;
      const folder = join(app, `types-${entry}`);
      mkdirSync(folder, { recursive: true });
      // an element with events of its own: the first it declares has its detail typed (a CustomEvent, not an Event)
      const declared = join(app, `node_modules/esign-elements/dist/elements/${tag}/events.d.ts`);
      const first = existsSync(declared) ? /'(esign-[a-z-]+)'/.exec(readFileSync(declared, 'utf8'))?.[1] : undefined;
      const listen = first ? `element.addEventListener('${first}', (event) => console.log(event.detail));\n` : '';
      writeFileSync(
        join(folder, 'page.ts'),
        `import 'esign-elements/${entry}';\nconst element: HTMLElementTagNameMap['esign-${tag}'] = document.createElement('esign-${tag}');\n${listen}`,
      );
      writeFileSync(
        join(folder, 'tsconfig.json'),
        JSON.stringify({
          compilerOptions: {
            target: 'ES2022',
            module: 'NodeNext',
            moduleResolution: 'NodeNext',
            lib: ['ES2023', 'DOM', 'DOM.Iterable'],
            strict: true,
            noEmit: true,
            skipLibCheck: false,
            types: [],
          },
          include: ['page.ts'],
        }),
      );
      const compiled = await run(process.execPath, [tsc, '-p', folder], { cwd: app }).then(
        () => '',
        (error: { stdout?: string }) => error.stdout ?? String(error),
      );
      assert.equal(compiled, '', `esign-elements/${entry} alone: ${compiled}`);
    }
  });

  it('runs the installed sandbox CLI: a container signature over HTTP and a signing page with the widget', async () => {
    const bin = join(dir, 'app/node_modules/.bin/esign-sandbox');
    const child = spawn(bin, ['--port', '0', '--answer-after', '50', '--access-token', 'cli-token'], { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      let output = '';
      child.stdout.setEncoding('utf8');
      while (!/listening on (\S+)/.test(output)) {
        const [chunk] = (await Promise.race([once(child.stdout, 'data'), once(child, 'exit').then(() => assert.fail('the CLI exited'))])) as [string];
        output += chunk;
      }
      assert.doesNotMatch(output, /cli-token/, 'a token chosen by the caller is not printed');
      assert.doesNotMatch(output, /no widget files/, 'the widget installed beside it is found');
      const url = /listening on (\S+)/.exec(output)![1]!;
      const start = await send(`${url}/smartid/sign.json`, 'POST', {
        access_token: 'cli-token',
        type: 'asice',
        code: '40504040001',
        country: 'EE',
        asice: { files: [{ name: 'a.pdf', content: b64(samplePdf()) }] },
      });
      assert.equal(start.json.status, 'ok');
      let result = start;
      for (let i = 0; i < 50; i++) {
        result = await send(`${url}/smartid/sign/status/${start.json.token}.json`, 'POST', { access_token: 'cli-token' });
        if (result.json.status !== 'waiting') break;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      assert.equal(result.json.status, 'ok', JSON.stringify(result.json).slice(0, 200));
      assert.equal(result.json.file.name, 'a_signed.asice');
      const asset = await fetch(`${url}/assets/esign-elements.js`);
      assert.equal(asset.status, 200);
      assert.match(await asset.text(), /esign-sign/);
    } finally {
      child.kill();
    }
  });

  it("shows a PDF preview in Vite's dev server with esign-elements/vite, and says it failed without it", async () => {
    const app = join(dir, 'app');
    writeFileSync(
      join(app, 'index.html'),
      '<!doctype html><html lang="en"><body><esign-document-preview src="/sample.pdf"></esign-document-preview><script type="module" src="/main.js"></script></body></html>',
    );
    writeFileSync(join(app, 'main.js'), "import 'esign-elements/document-preview';\n");
    writeFileSync(join(app, 'vite.config.js'), "import { esign } from 'esign-elements/vite';\nexport default { plugins: [esign()] };\n");
    await run('mkdir', ['-p', join(app, 'public')]);
    writeFileSync(join(app, 'public/sample.pdf'), samplePdf('Vite host agreement', 2));
    const browser = await puppeteer.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS });
    const preview = async (withPlugin: boolean) => {
      const server = await createServer({
        root: app,
        logLevel: 'silent',
        cacheDir: join(app, withPlugin ? '.vite-plugin' : '.vite-bare'),
        ...(withPlugin ? {} : { configFile: false }),
        server: { port: 0, host: '127.0.0.1' },
      });
      await server.listen();
      const page = await browser.newPage();
      try {
        const address = server.httpServer!.address() as { port: number };
        await page.goto(`http://127.0.0.1:${address.port}/`);
        await page.waitForFunction(
          () => {
            const root = document.querySelector('esign-document-preview')?.shadowRoot;
            return root?.querySelector('[part="error"]') || root?.querySelector('.textLayer')?.textContent;
          },
          { timeout: 60_000 },
        );
        return await page.evaluate(() => {
          const root = document.querySelector('esign-document-preview')!.shadowRoot!;
          return {
            text: root.querySelector('.textLayer')?.textContent ?? '',
            error: root.querySelector('[part="error"]')?.textContent?.replace(/\s+/g, ' ').trim() ?? '',
          };
        });
      } finally {
        await page.close();
        await server.close();
      }
    };
    try {
      const shown = await preview(true);
      assert.match(shown.text, /Vite host agreement/);
      assert.equal(shown.error, '');
      // Vite's pre-bundling moves the engine away from the worker: the preview says so rather than wait
      const bare = await preview(false);
      assert.equal(bare.text, '');
      assert.equal(bare.error, `The preview could not be shown. ${en['error.misconfigured']}`);
    } finally {
      await browser.close();
    }
  });

  it('serves a CommonJS Express host written in TypeScript ("module": "nodenext", no "type": "module"): it type-checks, builds, and logs a person in over real HTTP', async () => {
    const host = join(dir, 'cjs-host');
    await run('mkdir', ['-p', join(host, 'src')]);
    writeFileSync(join(host, 'package.json'), JSON.stringify({ name: 'cjs-host', private: true }));
    writeFileSync(
      join(host, 'tsconfig.json'),
      JSON.stringify({
        compilerOptions: { module: 'nodenext', target: 'es2022', strict: true, esModuleInterop: true, skipLibCheck: false, outDir: 'dist', types: ['node'] },
        include: ['src'],
      }),
    );
    writeFileSync(
      join(host, 'src/server.ts'),
      `import express from 'express';
import { createProxyHandler, type ProxyResult } from 'esign-elements/proxy';

const results: ProxyResult[] = [];
const app = express();
app.use(
  createProxyHandler({
    baseUrl: process.env['ESIGN_BASE_URL'] as string,
    accessToken: process.env['ESIGN_ACCESS_TOKEN'] as string,
    prefix: '/esign',
    minPollIntervalMs: 0,
    onResult: (result) => {
      results.push(result);
    },
  }),
);
app.get('/results', (_req, res) => res.json(results.map((result) => result.operation)));
const server = app.listen(0, '127.0.0.1', () => {
  const address = server.address();
  console.log(typeof address === 'object' && address ? address.port : 0);
});
`,
    );
    await run(
      'npm',
      ['install', '--no-audit', '--no-fund', '--prefer-offline', widget.tarball, 'express@5', '@types/express@5', '@types/node@20', 'typescript@~5.9'],
      {
        cwd: host,
        env: { ...process.env, PUPPETEER_SKIP_DOWNLOAD: '1' },
        maxBuffer: 16 * 1024 * 1024,
      },
    );
    // the type check and the build of a CommonJS host, as its own tsc runs them
    await run(join(host, 'node_modules/.bin/tsc'), ['-p', host], { cwd: host });
    const built = readFileSync(join(host, 'dist/server.js'), 'utf8');
    assert.match(built, /require\("esign-elements\/proxy"\)/, 'the host is CommonJS: it requires the proxy');

    const { startSandbox } = await import('esign-sandbox');
    const sandboxServer = await startSandbox({ accessToken: 'cjs-host-secret', answerAfterMs: 200 });
    const child = spawn(process.execPath, [join(host, 'dist/server.js')], {
      cwd: host,
      env: { ...process.env, ESIGN_BASE_URL: sandboxServer.url, ESIGN_ACCESS_TOKEN: 'cjs-host-secret' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    try {
      const [line] = (await once(child.stdout, 'data')) as [Buffer];
      const base = `http://127.0.0.1:${line.toString().trim()}`;
      const start = await send(`${base}/esign/smartid/login.json`, 'POST', { code: '40504040001', country: 'EE' });
      assert.equal(start.json.status, 'ok', JSON.stringify(start.json));
      const poll = () => send(`${base}/esign/smartid/status/${start.json.token}.json`, 'POST', {});
      let answer = await poll();
      for (let i = 0; i < 50 && answer.json.status === 'waiting'; i++) {
        await new Promise((resolve) => setTimeout(resolve, 100));
        answer = await poll();
      }
      assert.equal(answer.json.status, 'ok', JSON.stringify(answer.json));
      assert.equal(answer.json.name, 'OK');
      assert.deepEqual(await (await fetch(`${base}/results`)).json(), ['smartIdLoginStatus'], 'onResult ran once, on the host');
    } finally {
      child.kill();
      await sandboxServer.close();
    }
  });
});
