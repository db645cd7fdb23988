// Lesson example: a page script listening to the first explorer's changes (no inline script, so
// the page runs under a strict Content-Security-Policy).
const explorer = document.getElementById('causal');
const out = document.getElementById('last-change');
explorer.addEventListener('statechange', (event) => {
  const { mask, tokens } = event.detail.state;
  out.textContent = `${tokens.length} tokens, ${mask.kind} mask`;
});
