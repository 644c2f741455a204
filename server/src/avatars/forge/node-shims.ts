/**
 * GLTFExporter reads its output through the browser's FileReader; Node has Blob but no
 * FileReader. This installs the small part the exporter uses (readAsArrayBuffer + onloadend),
 * once, and only when missing — a browser or a newer Node keeps its own.
 */
class NodeFileReader {
  result: ArrayBuffer | null = null;
  onloadend: (() => void) | null = null;

  readAsArrayBuffer(blob: Blob): void {
    void blob.arrayBuffer().then((buffer) => {
      this.result = buffer;
      this.onloadend?.();
    });
  }
}

export function installNodeShims(): void {
  const scope = globalThis as { FileReader?: unknown };
  if (typeof scope.FileReader === 'undefined') scope.FileReader = NodeFileReader;
}
