import type { ModelFinding } from '@alma/protocol';
import { validateBytes } from 'gltf-validator';

/**
 * The Khronos glTF validator over a GLB (run before compression: it cannot see inside meshopt or
 * Draco data, so compressed uploads are validated once decoded). Errors are grouped by code, most
 * frequent first, each with its count and first JSON pointer — what the user is told (AU-12).
 */

export interface IssueSummary {
  code: string;
  count: number;
  pointer: string;
  message: string;
}

export interface ValidationSummary {
  errors: number;
  warnings: number;
  /** Errors by code, most frequent first. */
  byCode: IssueSummary[];
}

/** Issues kept from one run: enough to count the common codes, bounded for huge broken files. */
const MAX_ISSUES = 1000;
/** Codes a refusal names; the rest are summed into the count. */
const TOP_CODES = 5;

export async function validateGlb(bytes: Uint8Array): Promise<ValidationSummary> {
  const report = await validateBytes(bytes, {
    format: 'glb',
    maxIssues: MAX_ISSUES,
    // Never fetch anything: an upload is one self-contained .glb.
    externalResourceFunction: () => Promise.reject(new Error('external resources are not allowed')),
  });
  const byCode = new Map<string, IssueSummary>();
  for (const issue of report.issues.messages) {
    if (issue.severity !== 0) continue;
    const seen = byCode.get(issue.code);
    if (seen) seen.count += 1;
    else
      byCode.set(issue.code, {
        code: issue.code,
        count: 1,
        pointer: issue.pointer ?? (issue.offset !== undefined ? `byte ${issue.offset}` : ''),
        message: issue.message,
      });
  }
  return {
    errors: report.issues.numErrors,
    warnings: report.issues.numWarnings,
    byCode: [...byCode.values()].sort((a, b) => b.count - a.count),
  };
}

/** What a refusal tells: the top codes in plain words with counts and places, then how to re-export. */
export function validatorFindings(summary: ValidationSummary, codes?: readonly string[]): ModelFinding[] {
  const shown = summary.byCode.filter((i) => !codes || codes.includes(i.code)).slice(0, TOP_CODES);
  return [
    ...shown.map((i): ModelFinding => ({
      reason: 'validator_error',
      params: { code: i.code, count: i.count, pointer: i.pointer, message: i.message },
    })),
    { reason: 'reexport_hint', params: {} },
  ];
}
