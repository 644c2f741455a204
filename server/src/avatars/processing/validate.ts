import { validateBytes } from 'gltf-validator';

export interface ValidationSummary {
  errors: number;
  warnings: number;
  /** The first few error messages, for the failure text and the report. */
  messages: string[];
}

/** The Khronos glTF validator over the uploaded bytes (run before compression: it cannot see inside meshopt data). */
export async function validateGlb(bytes: Uint8Array): Promise<ValidationSummary> {
  const report = await validateBytes(bytes, {
    format: 'glb',
    maxIssues: 100,
    // Never fetch anything: an upload is one self-contained .glb.
    externalResourceFunction: () => Promise.reject(new Error('external resources are not allowed')),
  });
  return {
    errors: report.issues.numErrors,
    warnings: report.issues.numWarnings,
    messages: report.issues.messages
      .filter((m) => m.severity === 0)
      .slice(0, 5)
      .map((m) => `${m.code}: ${m.message}`),
  };
}
