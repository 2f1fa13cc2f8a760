/**
 * The Compare Rules view's webview: every curation rule's figures on one file as cards that wrap
 * to the panel's width, then the matrix of every two rules' kept overlap. A cell of two rules that
 * disagree opens the Rollout Explorer on those rollouts. Every text is set as text.
 */
import { isHostToRules, isRulesState, RULES_STATE_VERSION, type HostToRules, type RulesState, type RulesSubject, type RulesToHost } from '../../src/protocol/rules';
import { h, replaceChildren } from '../dom';
import { HostChannel } from '../hostChannel';
import { matrixCell, pairWords, ruleCard, type RuleCard } from './rulesModel';

const channel = new HostChannel<HostToRules, RulesToHost, RulesState>(isHostToRules, isRulesState);
const root = document.getElementById('app') as HTMLElement;

function card(c: RuleCard): HTMLElement {
  return h('section', {
    className: `rule-card${c.isChosen ? ' chosen' : ''}`,
    attrs: { 'data-rule': c.rule, 'aria-label': `${c.title}: ${c.heading}` },
    children: [
      h('h2', { text: c.title }),
      h('p', { className: 'rule-params muted', text: c.heading + (c.isChosen ? ' · the rule the settings choose' : '') }),
      h('dl', { className: 'rule-figures', children: c.figures.flatMap(([key, label, value]) => [h('dt', { text: label }), h('dd', { className: `fig-${key}`, text: value })]) }),
      ...c.notes.map((n) => h('p', { className: 'rule-note', text: n })),
    ],
  });
}

function matrix(s: RulesSubject): HTMLElement {
  const names = s.figures.rules.map((r) => r.rule);
  const head = h('tr', { children: [h('th', { text: '' }), ...names.map((n) => h('th', { attrs: { scope: 'col' }, text: n }))] });
  const rows = names.map((row) => h('tr', {
    children: [
      h('th', { attrs: { scope: 'row' }, text: row }),
      ...names.map((column) => {
        const cell = matrixCell(s.figures, row, column);
        if (cell.kind === 'self') return h('td', { className: 'self num', text: String(cell.kept), attrs: { title: `${row} keeps ${cell.kept}` } });
        const both = h('span', { className: 'both', text: String(cell.both) });
        const differ = cell.differ > 0
          ? h('button', { className: 'link disagree', text: `${cell.differ} differ`, attrs: { type: 'button', 'data-a': row, 'data-b': column, 'aria-label': pairWords(cell), title: pairWords(cell) } })
          : h('span', { className: 'muted agree', text: 'agree' });
        if (differ instanceof HTMLButtonElement) differ.addEventListener('click', () => channel.post({ type: 'disagree', a: row, b: column }));
        return h('td', { className: 'pair num', attrs: { title: pairWords(cell) }, children: [both, differ] });
      }),
    ],
  }));
  return h('div', { className: 'table-holder matrix-holder', children: [h('table', { className: 'rules-matrix', children: [h('thead', { children: [head] }), h('tbody', { children: rows })] })] });
}

function show(message: HostToRules): void {
  switch (message.type) {
    case 'rules': {
      const s = message.subject;
      channel.saveState({ version: RULES_STATE_VERSION, source: s.source });
      const f = s.figures;
      replaceChildren(root, [
        h('div', { className: 'view-header', children: [h('h1', { text: `Compare curation rules · ${s.fileLabel}` })] }),
        h('p', { className: 'totals', text: `${f.rollouts} rollouts in ${f.groups} groups · ${f.suspected} suspected false positive${f.suspected === 1 ? '' : 's'} (flags under the current scorer and flag rules, the same for every rule)` }),
        h('div', { className: 'rule-cards', children: f.rules.map((r) => card(ruleCard(r, s.params[r.rule], s.chosen, f.rollouts))) }),
        h('h2', { text: 'Kept by both' }),
        h('p', { className: 'muted', text: 'Each cell: rollouts both rules keep, and how many one keeps and the other drops. Click a count that differs to open those rollouts in the Rollout Explorer.' }),
        matrix(s),
      ]);
      break;
    }
    case 'notice':
      replaceChildren(root, [h('h1', { text: 'Compare curation rules' }), h('p', { className: 'notice', text: message.text })]);
      break;
    default: {
      const unexpected: never = message;
      void unexpected;
    }
  }
}

channel.listen(show);
channel.post({ type: 'ready' });
