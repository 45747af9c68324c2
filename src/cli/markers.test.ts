import { jest } from '@jest/globals';
import { Command } from 'commander';
import { markerSyntax } from '../markers/help.js';
import { findMarker } from '../markers/catalogue.js';
import { markersCommandOutput, register } from './markers.js';

describe('kubeforge markers', () => {
  it('lists every category like controller-gen -w, categories sorted, one row per marker and target', () => {
    const { stdout, exitCode } = markersCommandOutput();
    expect(exitCode).toBe(0);
    const headings = stdout.split('\n').filter((l) => l !== '' && !l.startsWith('+'));
    expect(headings).toEqual(['CRD', 'CRD processing', 'CRD validation', 'RBAC', 'Webhook', 'apply', 'object']);
    expect(stdout).toMatch(/^\+kubebuilder:validation:Maximum=<number> +field +specifies the maximum numeric value/m);
    expect(stdout).toMatch(/^\+kubebuilder:validation:Maximum=<number> +type /m);
    expect(stdout).toMatch(/^\+kubebuilder:validation:items:Maximum=<number> +field +for array items specifies/m);
    expect(stdout).toMatch(/^\+kubebuilder:validation:XPreserveUnknownFields +field +\(use \+kubebuilder:pruning:PreserveUnknownFields\)/m);
    expect(stdout.split('\n').every((l) => !l.endsWith(' '))).toBe(true);
  });

  it('writes struct syntax with arguments sorted by name and optional ones bracketed', () => {
    expect(markerSyntax(findMarker('kubebuilder:printcolumn', 'type')!)).toBe(
      '+kubebuilder:printcolumn:JSONPath=<string>[,description=<string>][,format=<string>],name=<string>[,priority=<int>],type=<string>',
    );
    expect(markerSyntax(findMarker('kubebuilder:resource', 'type')!)).toBe(
      '+kubebuilder:resource[:categories=<[]string>][,path=<string>][,scope=<string>][,shortName=<[]string>][,singular=<string>]',
    );
    expect(markerSyntax(findMarker('kubebuilder:subresource:status', 'type')!)).toBe('+kubebuilder:subresource:status');
  });

  it('filters by category', () => {
    const { stdout } = markersCommandOutput(undefined, 'rbac');
    expect(stdout).toContain('+kubebuilder:rbac');
    expect(stdout).not.toContain('+kubebuilder:webhook');
    expect(markersCommandOutput(undefined, 'nope')).toMatchObject({ exitCode: 1, stderr: expect.stringContaining('unknown category "nope"') });
  });

  it('prints the full help of one marker, with or without +', () => {
    const { stdout } = markersCommandOutput('+kubebuilder:rbac');
    expect(stdout).toContain('targets:  package');
    expect(stdout).toMatch(/verbs=<\[\]string> +required +specifies the \(lowercase\) kubernetes API verbs/);
    expect(stdout).toMatch(/roleName=<string> +optional, default "manager-role"/);
    expect(markersCommandOutput('kubebuilder:validation:Optional').stdout).toContain('targets:  package, field');
  });

  it('prints JSON like controller-gen -wwww', () => {
    const parsed = JSON.parse(markersCommandOutput(undefined, 'RBAC', true).stdout);
    expect(parsed).toHaveLength(1);
    expect(parsed[0].category).toBe('RBAC');
    expect(parsed[0].markers[0]).toMatchObject({ name: 'kubebuilder:rbac', target: 'package' });
    expect(parsed[0].markers[0].fields.find((f: { name: string }) => f.name === 'verbs')).toMatchObject({ type: '[]string', optional: false });
  });

  it('suggests a name for an unknown marker and fails', () => {
    expect(markersCommandOutput('kubebuilder:validation:Minimun')).toEqual({
      stdout: '',
      stderr: 'unknown marker "+kubebuilder:validation:Minimun" (did you mean "+kubebuilder:validation:Minimum"?)\n',
      exitCode: 1,
    });
  });

  it('registers the command with commander', async () => {
    const program = new Command().exitOverride();
    register(program);
    const write = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
    try {
      await program.parseAsync(['node', 'kubeforge', 'markers', 'optional']);
      expect(String(write.mock.calls[0][0])).toContain('+optional');
    } finally {
      write.mockRestore();
    }
  });
});
