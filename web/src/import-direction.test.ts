//! Lint of the import direction: nothing the common script imports statically may reach React.

import { describe, expect, it } from 'vitest';

// Every source module's text, keyed like './runtime/lifecycle.ts'.
const sources = import.meta.glob<string>(['./**/*.ts', './**/*.tsx', '!./**/*.test.ts', '!./**/*.test.tsx'], {
  query: '?raw',
  import: 'default',
  eager: true,
});

/** Static import and re-export specifiers; `import type` is erased and dynamic `import()` is a separate chunk. */
function staticSpecifiers(text: string): string[] {
  const pattern = /^\s*(?:import|export)\s+(?!type\s)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm;
  return [...text.matchAll(pattern)].map((match) => match[1]!);
}

function resolve(from: string, specifier: string): string | undefined {
  const parts = from.split('/').slice(0, -1);
  for (const part of specifier.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  const base = parts.join('/');
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) => candidate in sources);
}

/** Every module reachable from `entry` through static imports, with the bare packages each imports. */
function staticGraph(entry: string): Map<string, string[]> {
  const graph = new Map<string, string[]>();
  const pending = [entry];
  while (pending.length > 0) {
    const module = pending.pop()!;
    if (graph.has(module)) continue;
    const specifiers = staticSpecifiers(sources[module] ?? '');
    graph.set(module, specifiers.filter((specifier) => !specifier.startsWith('.')));
    // Stylesheets are not modules of this graph.
    for (const specifier of specifiers.filter((s) => s.startsWith('.') && !s.endsWith('.css'))) {
      const target = resolve(module, specifier);
      if (target === undefined) throw new Error(`${module}: cannot resolve ${specifier}`);
      pending.push(target);
    }
  }
  return graph;
}

/** Static specifiers, dynamic `import()` specifiers and `import.meta.glob` patterns: everything a module may load. */
function everySpecifier(text: string): string[] {
  const dynamic = [...text.matchAll(/import\(\s*['"]([^'"]+)['"]\s*\)/g)].map((match) => match[1]!);
  const globs = [...text.matchAll(/import\.meta\.glob[^(]*\(\s*\[?\s*['"]([^'"]+)['"]/g)].map((match) => match[1]!);
  return [...staticSpecifiers(text), ...dynamic, ...globs];
}

const isReact = (specifier: string) => /^(react|react-dom|scheduler)(\/|$)/.test(specifier);

describe('import direction', () => {
  it('finds the sources it checks', () => {
    expect(Object.keys(sources)).toContain('./main.ts');
    expect(staticSpecifiers(`import { a } from 'react';\nimport type { B } from 'react';\nexport * from './x';`)).toEqual([
      'react',
      './x',
    ]);
  });

  it('keeps React out of the static import graph of main.ts', () => {
    const offenders = [...staticGraph('./main.ts')].filter(([, packages]) => packages.some(isReact));
    expect(offenders.map(([module]) => module)).toEqual([]);
  });

  it('keeps the code of overlays and of a signed-in owner out of the static import graph of main.ts', () => {
    // A page that opens no overlay and has no owner signed in loads the common script alone
    // (issue 15: its JavaScript as before the display widgets).
    const onDemand = ['./runtime/overlay-coordinator.ts', './consent/cookie-banner.ts', './popup/popup-overlay.ts', './owner/live-site.ts'];
    for (const module of onDemand) expect(Object.keys(sources)).toContain(module);
    const graph = staticGraph('./main.ts');
    expect(onDemand.filter((module) => graph.has(module))).toEqual([]);
  });

  it("gives the owner dashboard no dynamic import, which would share Vite's preload helper with main.ts as a chunk of its own", () => {
    const dashboard = [...staticGraph('./owner/dashboard/main.ts').keys()];
    const offenders = dashboard.filter((module) => /import\(\s*['"]/.test(sources[module] ?? ''));
    expect(offenders).toEqual([]);
  });

  it('keeps uPlot and the owner dashboard out of everything the site pages can load', () => {
    const inDashboard = (path: string) => path.startsWith('./owner/dashboard/');
    expect(Object.keys(sources).filter(inDashboard)).toContain('./owner/dashboard/main.ts');
    const offenders = Object.entries(sources)
      .filter(([path]) => !inDashboard(path))
      .filter(([path, text]) =>
        everySpecifier(text).some(
          (specifier) =>
            /^uplot(\/|$)/.test(specifier) ||
            (specifier.startsWith('.') && (resolve(path, specifier) ?? specifier).includes('owner/dashboard')),
        ),
      );
    expect(offenders.map(([path]) => path)).toEqual([]);
  });

  it('keeps React out of every runtime module', () => {
    const runtime = Object.keys(sources).filter((path) => path.startsWith('./runtime/'));
    expect(runtime.length).toBeGreaterThan(5);
    const offenders = runtime.filter((path) => staticSpecifiers(sources[path]!).some(isReact));
    expect(offenders).toEqual([]);
  });
});
