import { writeFileSync } from 'node:fs';
import type { ChaosAnswer } from './chaos-api.js';
import type { Surface } from './openapi-operations.js';

/** One broken invariant, with what it takes to reproduce it. */
export interface Violation {
  /** `METHOD /templated/path`. */
  operation: string;
  /** What was sent, briefly. */
  input: string;
  /** The request target as sent (cut). */
  target: string;
  status: number;
  problem: string;
  excerpt: string;
}

/**
 * Bugs found by these scenarios and reported, not yet fixed: a violation one of them matches is
 * counted apart and does not fail the test. Empty this list as the fixes land; an entry that no
 * longer matches anything fails the test, so that it is not forgotten.
 */
export interface KnownBug {
  id: string;
  matches(v: Violation): boolean;
}

export function excerptOf(answer: ChaosAnswer, max = 240): string {
  if (answer.failure) return answer.failure;
  const text = answer.text.replace(/\s+/g, ' ');
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

const isText = (v: unknown): v is string => typeof v === 'string' && v.length > 0;

/**
 * What is wrong with an error body of the surface (DESIGN D5): `/v1` `{error, message, code,
 * details?}` as application/json; `/api/v1` the same fields in an RFC 9457 problem (type, title,
 * status), application/problem+json, with non-empty next_actions on every 4xx.
 */
export function errorShapeProblems(
  surface: Surface,
  answer: ChaosAnswer,
  options: { jsonRpc?: boolean } = {},
): string[] {
  const problems: string[] = [];
  const type = answer.headers.get('content-type') ?? '';
  const body = answer.json;
  if (options.jsonRpc && body?.jsonrpc === '2.0') return jsonRpcErrorProblems(type, body);
  const problemJson = surface !== 'platform';
  if (problemJson && !type.startsWith('application/problem+json'))
    problems.push(`content-type ${JSON.stringify(type)}, not application/problem+json`);
  if (!problemJson && !type.startsWith('application/json'))
    problems.push(`content-type ${JSON.stringify(type)}, not application/json`);
  if (!body || typeof body !== 'object' || Array.isArray(body)) return [...problems, 'the body is not a JSON object'];
  if (!isText(body.error) || !/^[a-z][a-z_]*$/.test(body.error)) problems.push(`error ${JSON.stringify(body.error)}`);
  if (!isText(body.code) || !/^[A-Z][A-Z0-9_]*$/.test(body.code)) problems.push(`code ${JSON.stringify(body.code)}`);
  if (!isText(body.message)) problems.push('no message');
  if (body.details !== undefined) {
    const ok =
      Array.isArray(body.details) &&
      body.details.every((d: any) => d && typeof d.path === 'string' && typeof d.message === 'string');
    if (!ok) problems.push('details are not [{path, message}]');
  }
  if (problemJson) {
    if (!isText(body.type) || (isText(body.code) && !body.type.endsWith(`#${body.code}`)))
      problems.push(`type ${JSON.stringify(body.type)}`);
    if (!isText(body.title)) problems.push('no title');
    if (body.status !== answer.status) problems.push(`status ${JSON.stringify(body.status)} ≠ ${answer.status}`);
    if (answer.status < 500) {
      const actions = body.next_actions;
      if (!Array.isArray(actions) || actions.length === 0) problems.push('no next_actions on a 4xx');
      else if (!actions.every((a: any) => isText(a?.action) && isText(a?.method) && absoluteUrl(a?.url)))
        problems.push('a next action lacks action, method or an absolute url');
    }
  }
  return problems;
}

/** The MCP transport answers its own protocol errors (406, a bad JSON-RPC message) as JSON-RPC 2.0. */
function jsonRpcErrorProblems(type: string, body: any): string[] {
  const problems: string[] = [];
  if (!type.startsWith('application/json')) problems.push(`content-type ${JSON.stringify(type)}, not application/json`);
  if (!Number.isInteger(body.error?.code)) problems.push('a JSON-RPC error without an integer code');
  if (!isText(body.error?.message)) problems.push('a JSON-RPC error without a message');
  return problems;
}

function absoluteUrl(url: unknown): boolean {
  if (!isText(url)) return false;
  try {
    return Boolean(new URL(url).protocol);
  } catch {
    return false;
  }
}

/** Splits violations into the known bugs' and the others; also returns the entries that matched nothing. */
export function triage(
  violations: Violation[],
  known: readonly KnownBug[],
): { fresh: Violation[]; knownCounts: Record<string, number>; stale: string[] } {
  const knownCounts: Record<string, number> = Object.fromEntries(known.map((k) => [k.id, 0]));
  const fresh: Violation[] = [];
  for (const v of violations) {
    const bug = known.find((k) => k.matches(v));
    if (bug) knownCounts[bug.id]! += 1;
    else fresh.push(v);
  }
  return { fresh, knownCounts, stale: known.filter((k) => knownCounts[k.id] === 0).map((k) => k.id) };
}

/** CHAOS_REPORT=file writes every violation there, one JSON per line, then the statuses by operation. */
export function dumpViolations(violations: Violation[], statusesByOperation: Record<string, string> = {}): void {
  const file = process.env.CHAOS_REPORT;
  if (!file) return;
  const lines = [
    ...violations,
    ...Object.entries(statusesByOperation).map(([operation, statuses]) => ({ operation, statuses })),
  ];
  writeFileSync(file, lines.map((v) => JSON.stringify(v)).join('\n') + '\n');
}

/** The failure message: how many, then the first 20, one per line. */
export function report(title: string, violations: Violation[], stale: string[]): string {
  const lines = violations
    .slice(0, 20)
    .map(
      (v, i) =>
        `${i + 1}. ${v.operation} [${v.input}] ${v.target.length > 160 ? `${v.target.slice(0, 160)}…` : v.target} → ${v.status}: ${v.problem} — ${v.excerpt}`,
    );
  const staleLines = stale.map((id) => `KNOWN_BUGS entry ${id} no longer reproduces: remove it.`);
  return [`${title}: ${violations.length} violation(s)`, ...lines, ...staleLines].join('\n');
}

/** `{"400": 12, ...}` → `400×12 404×3`. */
export function byStatus(counts: Map<number, number>): string {
  return [...counts.entries()]
    .sort(([a], [b]) => a - b)
    .map(([s, n]) => `${s === 0 ? 'no-answer' : s}×${n}`)
    .join(' ');
}
