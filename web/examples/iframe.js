// Lesson example: a parent page talking to embed.html with postMessage. The iframe is told to
// accept messages from this page's origin only (?parentOrigin=…), and this page reads messages
// from the iframe's origin only.
const frame = document.getElementById('explorer');
const log = document.getElementById('log');
const embedUrl = new URL(
  `../embed.html?parentOrigin=${encodeURIComponent(window.location.origin)}`,
  window.location.href,
);
frame.src = embedUrl.href;

const received = [];
window.explorerMessages = received; // for the end-to-end tests

function send(message) {
  frame.contentWindow.postMessage({ version: 1, ...message }, embedUrl.origin);
}

window.addEventListener('message', (event) => {
  if (event.origin !== embedUrl.origin || event.source !== frame.contentWindow) return;
  const { type, state, source, error } = event.data ?? {};
  if (typeof type !== 'string' || !type.startsWith('attention-explorer:')) return;
  if (type === 'attention-explorer:height') {
    // Size the frame to the explorer: no scrollbar inside the lesson.
    if (Number.isFinite(event.data.height) && event.data.height > 0)
      frame.style.height = `${Math.min(event.data.height, 20000)}px`;
    return;
  }
  received.push(event.data);
  const what = state
    ? `${state.mode} mode, ${state.tokens.length} tokens, ${state.mask.kind} mask${source ? ` (${source})` : ''}`
    : error;
  log.textContent = `${type}: ${what}\n${log.textContent}`.slice(0, 4000);
});

document.getElementById('send-causal').addEventListener('click', () => {
  // A state is plain data: here the last one the explorer sent, with a causal mask.
  const last = [...received].reverse().find((m) => m.state)?.state;
  if (!last) return;
  send({ type: 'attention-explorer:set-state', state: { ...last, mask: { ...last.mask, kind: 'causal' } } });
});
document.getElementById('ask').addEventListener('click', () => send({ type: 'attention-explorer:get-state' }));
