import { describe, expect, it } from 'vitest';
import { planScorer, resolveModelDir, trustedUrls, trustedValue, urlList, type ScorerSettings } from '../../../src/vscode/scorerFromSettings';
import { consentText } from '../../../src/scoring/scorers/critic/consentText';

const none = {};

function settings(overrides: Partial<ScorerSettings>): ScorerSettings {
  return { choice: 'auto', modelPath: none, endpointUrl: none, isTrusted: true, paths: { home: '/home/u' }, ...overrides };
}

describe('restricted settings and workspace trust', () => {
  it('takes the most specific value in a trusted workspace', () => {
    expect(trustedValue({ user: '/u', workspace: '/w', folder: '/f' }, true)).toEqual({ value: '/f', level: 'folder', isWorkspaceValueIgnored: false });
    expect(trustedValue({ user: '/u', workspace: '/w' }, true)).toEqual({ value: '/w', level: 'workspace', isWorkspaceValueIgnored: false });
    expect(trustedValue({ user: '/u' }, true)).toEqual({ value: '/u', level: 'user', isWorkspaceValueIgnored: false });
  });

  it('uses only the user value in an untrusted workspace, and says a workspace value was ignored', () => {
    expect(trustedValue({ user: '/u', workspace: '/w', folder: '/f' }, false)).toEqual({ value: '/u', level: 'user', isWorkspaceValueIgnored: true });
    expect(trustedValue({ workspace: '/evil/model' }, false)).toEqual({ value: null, level: null, isWorkspaceValueIgnored: true });
    expect(trustedValue({ user: '/u' }, false)).toEqual({ value: '/u', level: 'user', isWorkspaceValueIgnored: false });
  });

  it('treats empty, blank and non-string values as unset', () => {
    expect(trustedValue({ user: '  ', workspace: '', folder: 42 }, true).value).toBeNull();
    expect(trustedValue({ user: ' /u ' }, true).value).toBe('/u');
  });

  it('never lets an untrusted workspace name the model or the endpoint', () => {
    for (const choice of ['auto', 'onnx', 'http', 'critic'] as const) {
      const evil = { folder: ['http://attacker.example'] };
      const plan = planScorer(settings({ choice, isTrusted: false, modelPath: { workspace: '/repo/model' }, endpointUrl: evil, criticUrl: evil }));
      expect(plan.model, choice).toBeNull();
      expect(plan.notice?.message, choice).toMatch(/not trusted/);
      expect(plan.notice?.isError).toBe(false);
    }
  });

  it('uses the user-level model in an untrusted workspace', () => {
    const plan = planScorer(settings({ choice: 'onnx', isTrusted: false, modelPath: { user: '/models/prm', workspace: '/repo/model' } }));
    expect(plan).toEqual({ choice: 'onnx', model: { kind: 'onnx', modelDir: '/models/prm' }, notice: null });
  });
});

describe('scorer choice', () => {
  it('auto prefers the model folder, then the endpoint, then no model (file scores, else the checker)', () => {
    const both = planScorer(settings({ modelPath: { user: '/m' }, endpointUrl: { user: 'http://127.0.0.1:8000' } }));
    expect(both.model).toEqual({ kind: 'onnx', modelDir: '/m' });
    expect(planScorer(settings({ endpointUrl: { user: 'http://127.0.0.1:8000' } })).model).toEqual({ kind: 'http', urls: ['http://127.0.0.1:8000'] });
    expect(planScorer(settings({}))).toEqual({ choice: 'auto', model: null, notice: null });
  });

  it('file and checker never open a model, whatever is configured', () => {
    for (const choice of ['file', 'checker'] as const) {
      expect(planScorer(settings({ choice, modelPath: { user: '/m' }, endpointUrl: { user: 'http://x' } }))).toEqual({ choice, model: null, notice: null });
    }
  });

  it('onnx and http use only their own kind of model', () => {
    const configured = { modelPath: { user: '/m' }, endpointUrl: { user: 'http://127.0.0.1:8000' } };
    expect(planScorer(settings({ choice: 'onnx', ...configured })).model).toEqual({ kind: 'onnx', modelDir: '/m' });
    expect(planScorer(settings({ choice: 'http', ...configured })).model).toEqual({ kind: 'http', urls: ['http://127.0.0.1:8000'] });
  });

  it('the critic is used only when chosen, with its own endpoints (one URL or a list)', () => {
    const configured = { endpointUrl: { user: 'http://prm:8000' }, criticUrl: { user: ['http://a:8000', ' http://b:8000 ', ''] } };
    expect(planScorer(settings({ choice: 'critic', ...configured })).model).toEqual({ kind: 'critic', urls: ['http://a:8000', 'http://b:8000'] });
    expect(planScorer(settings({ choice: 'auto', ...configured })).model).toEqual({ kind: 'http', urls: ['http://prm:8000'] });
    const missing = planScorer(settings({ choice: 'critic', endpointUrl: { user: 'http://prm:8000' } }));
    expect(missing).toMatchObject({ model: null, notice: { short: 'no critic endpoint set', message: expect.stringContaining('profLens.scoring.criticEndpointUrl is not set') } });
  });

  it('reads a URL list setting level by level, trust honoured', () => {
    expect(urlList(['http://a', 3, '  ', 'http://b'])).toEqual(['http://a', 'http://b']);
    expect(urlList('http://a')).toEqual(['http://a']);
    expect(trustedUrls({ user: 'http://u', workspace: ['http://w1', 'http://w2'] }, true)).toMatchObject({ urls: ['http://w1', 'http://w2'], level: 'workspace' });
    expect(trustedUrls({ user: 'http://u', workspace: ['http://w1'] }, false)).toMatchObject({ urls: ['http://u'], level: 'user', isWorkspaceValueIgnored: true });
    expect(trustedUrls({ workspace: [] }, false)).toMatchObject({ urls: [], value: null, isWorkspaceValueIgnored: false });
  });

  it('onnx or http without a model says which setting is missing and that the checker scores instead', () => {
    const onnx = planScorer(settings({ choice: 'onnx', endpointUrl: { user: 'http://x' } }));
    expect(onnx.model).toBeNull();
    expect(onnx.notice?.message).toContain('profLens.scoring.modelPath is not set');
    expect(onnx.notice?.message).toContain('checker');
    const http = planScorer(settings({ choice: 'http', modelPath: { user: '/m' } }));
    expect(http.notice?.message).toContain('profLens.scoring.endpointUrl is not set');
  });
});

describe('model folder paths', () => {
  const base = { home: '/home/u', workspaceFolder: '/work/repo' };
  it('expands ~ and resolves a workspace-relative folder against the workspace', () => {
    expect(resolveModelDir({ value: '~/models/prm', level: 'user', isWorkspaceValueIgnored: false }, base)).toBe('/home/u/models/prm');
    expect(resolveModelDir({ value: 'models/prm', level: 'workspace', isWorkspaceValueIgnored: false }, base)).toBe('/work/repo/models/prm');
    expect(resolveModelDir({ value: '/abs/prm', level: 'folder', isWorkspaceValueIgnored: false }, base)).toBe('/abs/prm');
  });

  it('reaches planScorer', () => {
    expect(planScorer(settings({ modelPath: { user: '~/prm' } })).model).toEqual({ kind: 'onnx', modelDir: '/home/u/prm' });
  });
});

describe('the consent prompt before rollouts go to a critic', () => {
  it('says how many rollouts, roughly how many tokens, to which host and model', () => {
    const plan = { rollouts: 12, approxTokens: 5400, maxAnswerTokens: 4096, urls: ['https://critic.example:8443/v1base'], model: 'qwq-32b' };
    const { message, detail } = consentText(plan, null);
    expect(message).toBe('PROF Lens: send 12 rollouts to the critic at critic.example:8443?');
    expect(detail).toContain('About 5,400 tokens of problems and solutions go to critic.example:8443 (model qwq-32b)');
    expect(detail).toContain('up to 4,096 tokens');
    expect(detail).toContain('Nothing from this file is sent until you agree.');
    expect(consentText({ ...plan, rollouts: 1 }, 'the API key will be sent unencrypted').detail).toContain('Warning: the API key will be sent unencrypted.');
  });
});
