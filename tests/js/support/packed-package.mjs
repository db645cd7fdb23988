// The package as its users get it: `npm pack`, installed offline into a fresh project. Its runtime
// dependencies (js-tiktoken and what that needs) are packed from this checkout's node_modules and
// installed beside it, so npm finds every dependency among the tarballs and asks the registry for
// nothing: a machine whose npm cache holds only the tarballs `npm ci` fetched has no registry
// metadata, and an offline install of the package alone stops there at ENOTCACHED.
import { execFile } from 'node:child_process';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

function npm(args, cwd) {
  return new Promise((resolve, reject) => {
    execFile('npm', args, { cwd, timeout: 180000, maxBuffer: 1 << 24 }, (err, stdout, stderr) =>
      err ? reject(new Error(`npm ${args.join(' ')}: ${stderr || err.message}`)) : resolve(stdout),
    );
  });
}

/** The package and its runtime dependencies packed into `dir`: their tarballs' paths, the package's first. */
async function packWithDependencies(dir) {
  // This checkout first, then every runtime dependency's folder.
  const folders = (await npm(['ls', '--omit=dev', '--all', '--parseable'], ROOT)).split('\n').filter(Boolean);
  if (folders.length < 2) throw new Error(`npm ls listed no runtime dependency: ${folders.join(', ')}`);
  const tarballs = [];
  for (const folder of folders) {
    const [{ filename }] = JSON.parse(await npm(['pack', '--json', '--pack-destination', dir, folder], ROOT));
    tarballs.push(join(dir, filename));
  }
  return tarballs;
}

/**
 * A fresh ES-module project `name` in `dir`/`folder` with the packed package installed (offline);
 * returns the project's path.
 */
export async function installPackedPackage(dir, folder, name) {
  const tarballs = await packWithDependencies(dir);
  const project = join(dir, folder);
  await mkdir(project);
  await writeFile(join(project, 'package.json'), JSON.stringify({ name, private: true, type: 'module' }));
  await npm(['install', '--offline', '--no-audit', '--no-fund', '--loglevel=error', ...tarballs], project);
  return project;
}
