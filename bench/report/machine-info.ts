import { arch, cpus, loadavg, platform, release, totalmem } from "node:os";
import type { MachineInfo } from "./report-model.js";

/** The machine as the run starts; `loadavgEnd` is filled in at the end. */
export function machineInfo(): MachineInfo {
  const cores = cpus();
  return {
    os: `${platform()} ${release()}`,
    arch: arch(),
    cpuModel: cores[0]?.model.trim() ?? "unknown",
    cpuCount: cores.length,
    totalMemoryBytes: totalmem(),
    node: process.version,
    loadavgStart: loadavg(),
    loadavgEnd: [],
  };
}
