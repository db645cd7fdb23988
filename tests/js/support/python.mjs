// Runs Python scripts the page exports under the system interpreter (/usr/bin/python3, where
// Debian's python3-numpy and python3-torch live), all in one process: each script runs in a fresh
// namespace with its printing silenced, and the variables asked for come back as JSON.
import { spawnSync } from 'node:child_process';

export const PYTHON = process.env.PYTHON ?? '/usr/bin/python3';

/** Whether `import name` works under PYTHON. */
export const hasPythonModule = (name) => spawnSync(PYTHON, ['-c', `import ${name}`], { encoding: 'utf8' }).status === 0;

const RUNNER = `
import contextlib, io, json, sys
jobs = json.load(sys.stdin)
out = []
for job in jobs:
    ns = {'__name__': '__exported__'}
    printed = io.StringIO()
    try:
        with contextlib.redirect_stdout(printed):
            exec(compile(job['code'], job['name'], 'exec'), ns)
    except Exception as e:
        out.append({'error': '%s: %s' % (type(e).__name__, e)})
        continue
    vals = {}
    for k in job['names']:
        if k in ns:
            v = ns[k]
            vals[k] = v.tolist() if hasattr(v, 'tolist') else v
    vals['printed'] = printed.getvalue()
    out.append(vals)
json.dump(out, sys.stdout)
`;

/** Runs [{ name, code, names }] and returns, per script, its variables (or { error }). */
export function runPythonScripts(jobs) {
  const r = spawnSync(PYTHON, ['-c', RUNNER], {
    input: JSON.stringify(jobs),
    encoding: 'utf8',
    timeout: 300_000,
    maxBuffer: 256 << 20,
  });
  if (r.status !== 0) throw new Error(`python failed:\n${r.stderr}`);
  return JSON.parse(r.stdout);
}
