// Work that must happen soon but not before the next frame: a message posted now runs after the
// current task, and a redraw inside requestAnimationFrame is followed by style, layout and paint
// in that same task, so whatever is queued here runs once the frame with the edit is drawn. Each
// function queued more than once before the flush runs once, in the order first queued.
const queued = new Set();
let posted = false;
const channel = new MessageChannel();
channel.port1.onmessage = () => {
  posted = false;
  const jobs = [...queued];
  queued.clear();
  for (const job of jobs) job();
};

export function afterFrame(job) {
  queued.add(job);
  if (!posted) {
    posted = true;
    channel.port2.postMessage(0);
  }
}
