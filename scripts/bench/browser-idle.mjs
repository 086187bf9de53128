// Waits until a freshly launched Chromium has finished its own start-up work, so that a "first
// visit" measures the page in a fresh profile and not the browser starting. Right after launch,
// Chromium 156 keeps ~1.7 of this machine's 2 cores busy for ~0.7 s (mostly a top-chrome WebUI
// renderer preloading the omnibox popup, chrome://omnibox-popup.top-chrome/, even headless);
// a navigation started then shares the CPU with it. Nothing of the page is fetched, compiled or
// cached while waiting: the profile stays fresh.
//
// Linux: polls the CPU time (/proc/<pid>/stat) of every process whose command line names the
// profile folder (the browser, its renderers, GPU and utility processes) until three 100 ms
// windows in a row use less than 10 ms of CPU, for at most 10 s. Elsewhere: waits 2 s.
import { readdir, readFile } from 'node:fs/promises';

const WINDOW_MS = 100;
const QUIET_WINDOWS = 3;
const QUIET_CPU_MS = 10; // per window: 10 % of one core
const TIMEOUT_MS = 10_000;
const TICK_MS = 10; // USER_HZ = 100 on Linux

/** Resolves with { waitedMs, measured } once the browser using `userDataDir` is idle. */
export async function waitForBrowserIdle(userDataDir) {
  const start = performance.now();
  let previous = await profileCpuMs(userDataDir);
  if (previous === null) {
    await sleep(2000);
    return { waitedMs: performance.now() - start, measured: false };
  }
  for (let quiet = 0; quiet < QUIET_WINDOWS && performance.now() - start < TIMEOUT_MS; ) {
    await sleep(WINDOW_MS);
    const now = await profileCpuMs(userDataDir);
    quiet = now - previous < QUIET_CPU_MS ? quiet + 1 : 0;
    previous = now;
  }
  return { waitedMs: performance.now() - start, measured: true };
}

// Total user + system CPU time (ms) of the processes started with this profile; null without /proc.
async function profileCpuMs(userDataDir) {
  let pids;
  try {
    pids = (await readdir('/proc')).filter((name) => /^\d+$/.test(name));
  } catch {
    return null;
  }
  let total = 0;
  await Promise.all(pids.map(async (pid) => {
    try {
      const command = await readFile(`/proc/${pid}/cmdline`, 'utf8');
      if (!command.includes(userDataDir)) return;
      const stat = await readFile(`/proc/${pid}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' '); // fields[11], [12]: utime, stime
      total += (Number(fields[11]) + Number(fields[12])) * TICK_MS;
    } catch {
      // the process ended meanwhile
    }
  }));
  return total;
}

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));
