// Which host compilers the reader takes (host-typescript.ts): a TypeScript of 5.3 or later, nothing else.
import typescript from 'typescript';
import { hostTypeScript, unusableHostTypeScript, useHostTypeScript } from './host-typescript.js';

describe('the host TypeScript handed to the reader', () => {
  it("takes this checkout's TypeScript, and hands it out as it was given", () => {
    expect(unusableHostTypeScript(typescript)).toBeUndefined();
    expect(hostTypeScript()).toBeUndefined();
    expect(useHostTypeScript(typescript)).toBeUndefined();
    expect(hostTypeScript()).toBe(typescript);
  });

  it('refuses a TypeScript older than 5.3 and what is not a compiler', () => {
    const older = { version: '5.2.2', createSourceFile: typescript.createSourceFile };
    expect(unusableHostTypeScript(older)).toBe('TypeScript 5.2.2 is older than 5.3');
    expect(unusableHostTypeScript({ ...older, version: '4.9.5', JSDocParsingMode: typescript.JSDocParsingMode })).toBe('TypeScript 4.9.5 is older than 5.3');
    expect(unusableHostTypeScript({ ...older, version: '5.3.0' })).toBe('TypeScript 5.3.0 has no JSDocParsingMode');
    expect(unusableHostTypeScript({ ...older, version: '5.3.0', JSDocParsingMode: typescript.JSDocParsingMode })).toBeUndefined();
    expect(unusableHostTypeScript(undefined)).toBe('not a TypeScript compiler module');
    expect(unusableHostTypeScript({ version: '5.9.3' })).toBe('not a TypeScript compiler module');
  });

  it('keeps the compiler it has when handed one it cannot use', () => {
    expect(useHostTypeScript({ version: '4.9.5', createSourceFile: () => undefined })).toBe('TypeScript 4.9.5 is older than 5.3');
    expect(hostTypeScript()).toBe(typescript);
  });
});
