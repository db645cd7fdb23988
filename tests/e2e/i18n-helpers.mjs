// The pseudo-locale check shared by the page's translation tests: with ?lang=qps (or lang="qps")
// every message of the catalogues reads ⟦…⟧, so any visible text or accessible name with words
// outside those brackets did not go through a catalogue. Exempt: user data and mathematics, which
// the page marks translate="no" (token labels, typed sentences, file names, formulas), and
// anything without a run of two or more letters (numbers, symbols, single-letter names such as
// Q, K, V, h, n).

/**
 * The texts under `selector` (visible text nodes, and aria-label, title, placeholder, alt and
 * aria-description of visible elements) that have words outside ⟦…⟧; each as "text (where)".
 */
export function untranslatedTexts(page, selector = 'body') {
  return page.evaluate((sel) => {
    const WORD = /\p{L}{2,}/u;
    // Innermost brackets first: a message may hold another (a matrix's name inside a sentence).
    const outside = (text) => {
      let rest = text;
      for (let before = ''; before !== rest;) {
        before = rest;
        rest = rest.replace(/\u27e6[^\u27e6\u27e7]*\u27e7/g, ' ');
      }
      return rest;
    };
    const exempt = (e) => !!e.closest('[translate="no"], script, style, template, noscript');
    const visible = (e) => {
      if (!e.isConnected || e.closest('[hidden], [aria-hidden="true"]')) return false;
      const s = getComputedStyle(e);
      return s.display !== 'none' && s.visibility !== 'hidden' && e.getClientRects().length > 0;
    };
    const where = (e) => {
      const parts = [];
      for (let n = e; n && n !== document.body && parts.length < 3; n = n.parentElement) {
        parts.unshift(n.id ? `#${n.id}` : `${n.tagName.toLowerCase()}${n.classList[0] ? `.${n.classList[0]}` : ''}`);
      }
      return parts.join(' > ');
    };
    const found = [];
    for (const root of document.querySelectorAll(sel)) {
      const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        const e = node.parentElement;
        if (!e || exempt(e) || !visible(e)) continue;
        // A message split by inline elements (a count in bold) is judged as its element's whole text.
        if (WORD.test(outside(node.textContent)) && WORD.test(outside(e.textContent)))
          found.push(`"${node.textContent.trim().slice(0, 80)}" (${where(e)})`);
      }
      for (const e of [root, ...root.querySelectorAll('*')]) {
        if (exempt(e) || !visible(e)) continue;
        for (const name of ['aria-label', 'title', 'placeholder', 'alt', 'aria-description']) {
          const value = e.getAttribute(name);
          if (value && WORD.test(outside(value))) found.push(`${name}="${value.slice(0, 80)}" (${where(e)})`);
        }
      }
    }
    return [...new Set(found)];
  }, selector);
}
