// The estimator's slider workload, shared by bench.mjs (latency) and profile-slider.mjs (CPU
// profile): `moves` moves round-robin over every range input of the estimator, each to the next
// value of a fixed cycle (maximum, minimum, middle, a quarter, three quarters). Returns, per move,
// the time from just before the `input` event to the last DOM change it caused (0: none), and the
// DOM work it caused, counted by a MutationObserver independently of the machine's load: elements
// and text nodes added and removed, text changes and attribute changes (`dom`, summed over all
// moves; `domBySlider`, the same per slider id).
/** @param {import('playwright-core').Page} page */
export function moveSliders(page, moves) {
  return page.evaluate(async (moves) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    const task = () => new Promise((r) => setTimeout(r, 0));
    let last = 0;
    const zero = () => ({ added: 0, removed: 0, text: 0, attributes: 0 });
    let count = zero();
    // Counts the nodes of a subtree (an added element brings its children with it).
    const size = (n) => { let k = 1; for (let c = n.firstChild; c; c = c.nextSibling) k += size(c); return k; };
    const observer = new MutationObserver((records) => {
      last = performance.now();
      for (const r of records) {
        if (r.type === 'childList') {
          r.addedNodes.forEach((n) => { count.added += size(n); });
          r.removedNodes.forEach((n) => { count.removed += size(n); });
        } else if (r.type === 'characterData') count.text++;
        else count.attributes++;
      }
    });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
    const cycle = [1, 0, 0.5, 0.25, 0.75];
    const out = [];
    const ids = [];
    const dom = zero();
    const domBySlider = {};
    for (let i = 0; i < moves; i++) {
      // Sliders can appear or disappear (training controls), so look them up each move.
      const sliders = [...document.querySelectorAll('article[data-page=estimate] input[type=range]')];
      const s = sliders[i % sliders.length];
      const [min, max, step] = [Number(s.min || 0), Number(s.max || 100), Number(s.step) || 1];
      const f = cycle[Math.floor(i / sliders.length) % cycle.length];
      let v = min + Math.round(((max - min) * f) / step) * step;
      if (String(v) === s.value) v = v === max ? min : max;
      await frame();
      observer.takeRecords();
      last = 0;
      count = zero();
      const t0 = performance.now();
      s.value = String(v);
      s.dispatchEvent(new Event('input', { bubbles: true }));
      await frame();
      await frame();
      await task();
      out.push(last ? last - t0 : 0);
      ids.push(s.id);
      const mine = (domBySlider[s.id] ??= zero());
      for (const k of Object.keys(dom)) { dom[k] += count[k]; mine[k] += count[k]; }
    }
    observer.disconnect();
    return { out, ids: [...new Set(ids)], dom, domBySlider, fits: document.querySelector('[data-fits]')?.dataset.fits };
  }, moves);
}
