// The estimator's slider workload, shared by bench.mjs (latency) and profile-slider.mjs (CPU
// profile): `moves` moves round-robin over every range input of the estimator, each to the next
// value of a fixed cycle (maximum, minimum, middle, a quarter, three quarters). Returns, per move,
// the time from just before the `input` event to the last DOM change it caused (0: none).
/** @param {import('playwright-core').Page} page */
export function moveSliders(page, moves) {
  return page.evaluate(async (moves) => {
    const frame = () => new Promise((r) => requestAnimationFrame(() => r()));
    const task = () => new Promise((r) => setTimeout(r, 0));
    let last = 0;
    const observer = new MutationObserver(() => { last = performance.now(); });
    observer.observe(document.body, { childList: true, subtree: true, characterData: true, attributes: true });
    const cycle = [1, 0, 0.5, 0.25, 0.75];
    const out = [];
    const ids = [];
    for (let i = 0; i < moves; i++) {
      // Sliders can appear or disappear (training controls), so look them up each move.
      const sliders = [...document.querySelectorAll('article[data-page=estimate] input[type=range]')];
      const s = sliders[i % sliders.length];
      const [min, max, step] = [Number(s.min || 0), Number(s.max || 100), Number(s.step) || 1];
      const f = cycle[Math.floor(i / sliders.length) % cycle.length];
      let v = min + Math.round(((max - min) * f) / step) * step;
      if (String(v) === s.value) v = v === max ? min : max;
      await frame();
      last = 0;
      const t0 = performance.now();
      s.value = String(v);
      s.dispatchEvent(new Event('input', { bubbles: true }));
      await frame();
      await frame();
      await task();
      out.push(last ? last - t0 : 0);
      ids.push(s.id);
    }
    observer.disconnect();
    return { out, ids: [...new Set(ids)], fits: document.querySelector('[data-fits]')?.dataset.fits };
  }, moves);
}
