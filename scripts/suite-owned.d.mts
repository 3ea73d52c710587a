// Types of scripts/suite-owned.mjs for test/setup.ts.
export interface MarkedProcess {
  pid: number;
  command: string;
}
export const RUN_MARK: string;
export const FILE_MARK: string;
export const RUN_TMP: string;
export const SYSTEM_TMP: string;
export function shareTsxCache(dir: string, systemTmp: string): string;
export function leftInFolder(dir: string): string[];
export function processesMarked(name: string, value: string, dir?: string): MarkedProcess[];
export function stillRunning(name: string, value: string, ms: number, dir?: string): Promise<MarkedProcess[]>;
export function killAll(found: MarkedProcess[]): void;
export function describeProcesses(found: MarkedProcess[]): string[];
export function systemTmp(): string;
export function graceMs(): number;
export function sharedFolder(name: string): string;
export const STALE_RUN_MS: number;
export function removeStaleRuns(parent: string, now?: number): string[];
