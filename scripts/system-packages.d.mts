// Types for system-packages.mjs (plain JavaScript so it runs before `pnpm install`).
export interface SystemPackage {
  name: string;
  why: string;
  required: boolean;
  runtime: boolean;
  elsewhere: string;
  present?: () => boolean;
}
export const systemPackages: SystemPackage[];
export const runtimePackages: string[];
export function onPath(name: string, path?: string): string | undefined;
export function findChromium(env?: Record<string, string | undefined>): string | undefined;
export function findPythonWithSocketio(env?: Record<string, string | undefined>): string | undefined;
export function aptAvailable(): boolean;
export function missingPackages(packages?: SystemPackage[]): SystemPackage[];
export function isRoot(): boolean;
export function aptCommand(names: string[]): string;
export function aptInstall(names: string[]): void;
