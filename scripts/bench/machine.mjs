// The CPU the benchmarks ran on, for their headers: os.cpus()'s model string, which in a virtual
// machine is often only "AMD EPYC" or "Intel Xeon Processor", completed with /proc/cpuinfo's vendor,
// family and model numbers and the microarchitecture they name, so that runs on machines of one
// kind but different CPUs (Zen 5 and Xeons were both seen) are told apart.
import { readFileSync } from 'node:fs';
import os from 'node:os';

// Family/model → microarchitecture, for the CPUs such machines have.
const AMD_FAMILIES = { 23: 'Zen/Zen 2', 25: 'Zen 3/Zen 4', 26: 'Zen 5' };
const INTEL_MODELS = {
  85: 'Skylake-SP/Cascade Lake',
  106: 'Ice Lake-SP',
  108: 'Ice Lake-SP',
  143: 'Sapphire Rapids',
  207: 'Emerald Rapids',
  173: 'Granite Rapids',
  175: 'Sierra Forest',
};

function cpuinfo() {
  try {
    const text = readFileSync('/proc/cpuinfo', 'utf8');
    const field = (name) => text.match(new RegExp(`^${name}\\s*:\\s*(.*)$`, 'm'))?.[1]?.trim();
    return { vendor: field('vendor_id'), family: Number(field('cpu family')), model: Number(field('model')) };
  } catch {
    return null;
  }
}

/** "AMD EPYC (AuthenticAMD family 26 model 2, Zen 5)" or the bare model where /proc is missing. */
export function cpuDescription() {
  const name = os.cpus()[0]?.model?.trim() ?? 'unknown CPU';
  const info = cpuinfo();
  if (!info?.vendor) return name;
  const arch =
    info.vendor === 'AuthenticAMD'
      ? AMD_FAMILIES[info.family]
      : info.vendor === 'GenuineIntel' && info.family === 6
        ? INTEL_MODELS[info.model]
        : undefined;
  return `${name} (${info.vendor} family ${info.family} model ${info.model}${arch ? `, ${arch}` : ''})`;
}
