// Writes examples/gsm-rollouts.jsonl: grade-school problems, eight sampled solutions each, written
// with explicit calculations so the embedded checker has claims to verify. Some correct answers
// are reached through false steps (false positives), some wrong answers through true arithmetic
// (conflicts), one answer per group is a single step and one is very long (step-count penalty).
// Deterministic: the same file on every run.
import { writeFileSync, mkdirSync } from 'node:fs';

const problems = [
  { kind: 'cookies', a: 4, b: 12, c: 17, name: 'Maya' },
  { kind: 'cookies', a: 6, b: 8, c: 19, name: 'Omar' },
  { kind: 'cookies', a: 3, b: 15, c: 11, name: 'Lena' },
  { kind: 'savings', a: 35, b: 6, c: 48, name: 'Ravi' },
  { kind: 'savings', a: 24, b: 9, c: 57, name: 'Sofia' },
  { kind: 'savings', a: 18, b: 7, c: 40, name: 'Jonas' },
  { kind: 'trip', a: 62, b: 3, c: 45, name: 'Aiko' },
  { kind: 'trip', a: 55, b: 4, c: 38, name: 'Tomas' },
  { kind: 'trip', a: 48, b: 5, c: 27, name: 'Priya' },
];

const templates = {
  cookies: {
    prompt: (p) => `${p.name} bakes ${p.a} trays of cookies with ${p.b} cookies on each tray. ${p.name} gives away ${p.c} cookies. How many cookies are left?`,
    first: (p, v) => `${p.name} bakes ${p.a} trays with ${p.b} cookies each, so there are \\(${p.a} \\times ${p.b} = ${v}\\) cookies.`,
    second: (p, v, r) => `After giving away ${p.c} cookies, \\(${v} - ${p.c} = ${r}\\) cookies are left.`,
    wrongFirst: (p) => `There are ${p.a} trays and ${p.b} cookies per tray, so ${p.a} + ${p.b} = ${p.a + p.b} cookies.`,
    unit: (i, p) => `Tray ${i}: ${p.b} more cookies.`,
  },
  savings: {
    prompt: (p) => `${p.name} saves $${p.a} each week for ${p.b} weeks, then spends $${p.c} on a jacket. How many dollars does ${p.name} have left?`,
    first: (p, v) => `In ${p.b} weeks ${p.name} saves \\(${p.a} \\times ${p.b} = ${v}\\) dollars.`,
    second: (p, v, r) => `The jacket costs $${p.c}, so \\(${v} - ${p.c} = ${r}\\) dollars remain.`,
    wrongFirst: (p) => `${p.name} saves ${p.a} dollars plus ${p.b} weeks, which is ${p.a} + ${p.b} = ${p.a + p.b} dollars.`,
    unit: (i, p) => `Week ${i}: ${p.name} puts away another $${p.a}.`,
  },
  trip: {
    prompt: (p) => `A bus drives at ${p.a} km per hour for ${p.b} hours, then the last ${p.c} km are walked. How many km is the trip in total?`,
    first: (p, v) => `The bus covers \\(${p.a} \\times ${p.b} = ${v}\\) km.`,
    second: (p, v, r) => `Adding the walk, \\(${v} + ${p.c} = ${r}\\) km in total.`,
    wrongFirst: (p) => `The bus goes ${p.a} km and drives ${p.b} hours, so ${p.a} + ${p.b} = ${p.a + p.b} km.`,
    unit: (i, p) => `Hour ${i}: the bus covers ${p.a} km more.`,
  },
};

function answerOf(p) {
  const v = p.a * p.b;
  return p.kind === 'trip' ? v + p.c : v - p.c;
}

function combine(p, v) {
  return p.kind === 'trip' ? v + p.c : v - p.c;
}

/** The eight solutions of one problem, each with what it is meant to show. */
function solutions(p) {
  const t = templates[p.kind];
  const v = p.a * p.b;
  const r = answerOf(p);
  const boxed = (x) => `The answer is \\boxed{${x}}.`;
  const wrongV = p.a + p.b;
  const longSteps = [`Let me count one unit at a time.`];
  for (let i = 1; i <= 30; i++) longSteps.push(t.unit(((i - 1) % p.b) + 1, p));
  longSteps.push(`Altogether that is \\(${p.a} \\times ${p.b} = ${v}\\).`, t.second(p, v, r), boxed(r));
  return [
    [t.first(p, v), t.second(p, v, r), boxed(r)],
    [`First find the total before the change.`, t.first(p, v), t.second(p, v, r), boxed(r)],
    // A false product and a false difference that happen to land on the right answer.
    [t.first(p, v + 10), t.second(p, v + 10, r), boxed(r)],
    [`\\(${p.a} \\times ${p.b} = ${v}\\) and then ${combine(p, v)} is the result, so ${boxed(r)}`],
    // An arithmetic slip that leads to a wrong answer.
    [t.first(p, v), t.second(p, v, r + 2), boxed(r + 2)],
    // True arithmetic, wrong reasoning: the steps look trustworthy, the answer is wrong.
    [t.wrongFirst(p), t.second(p, wrongV, combine(p, wrongV)), boxed(combine(p, wrongV))],
    [t.first(p, v), `So the answer must be about half of that.`, `${v} / 2 = ${v / 2}`, boxed(v / 2)],
    longSteps,
  ];
}

const lines = [];
problems.forEach((p, k) => {
  const uid = `gsm-${String(k + 1).padStart(2, '0')}`;
  solutions(p).forEach((steps) => {
    lines.push(JSON.stringify({ uid, prompt: templates[p.kind].prompt(p), response: steps.join('\n\n'), answer: String(answerOf(p)) }));
  });
});
mkdirSync('examples', { recursive: true });
writeFileSync('examples/gsm-rollouts.jsonl', lines.join('\n') + '\n');
console.log(`wrote examples/gsm-rollouts.jsonl: ${lines.length} rollouts in ${problems.length} groups`);
