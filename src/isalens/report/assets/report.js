// isalens interactive report: data in #isalens-data; renders only the rows on screen (virtual list).
(function () {
  "use strict";
  const DATA = JSON.parse(document.getElementById("isalens-data").textContent);
  const ROW = 18;
  const state = { kernel: 0, file: "vgpr", reg: null, current: null, found: null, src: null };
  const $ = (id) => document.getElementById(id);
  let K, rangesByReg, width;

  function bisect(arr, x) { let lo = 0, hi = arr.length; while (lo < hi) { const m = (lo + hi) >> 1; if (arr[m] <= x) lo = m + 1; else hi = m; } return lo; }

  function regState(reg, i) {
    // ':' live, '^' written, 'v' read, 'x' both, ' ' nothing
    const d = K.defs[i], u = K.uses[i];
    const w = d && d.includes(reg), r = u && u.includes(reg);
    if (w && r) return "x"; if (w) return "^"; if (r) return "v";
    const rs = rangesByReg[reg]; if (!rs) return " ";
    const k = bisect(rs.starts, i) - 1;
    return k >= 0 && rs.ends[k] >= i ? ":" : " ";
  }

  function liveRows(reg) {
    const rs = rangesByReg[reg]; const out = new Set(); if (!rs) return out;
    for (let k = 0; k < rs.starts.length; k++) for (let i = rs.starts[k]; i <= rs.ends[k]; i++) out.add(i);
    return out;
  }

  function selectKernel(k) {
    state.kernel = k; K = DATA.kernels[k]; state.reg = null; state.current = null; state.found = null;
    rangesByReg = {};
    for (const [reg, s, e] of K.ranges) { (rangesByReg[reg] = rangesByReg[reg] || { starts: [], ends: [] }); rangesByReg[reg].starts.push(s); rangesByReg[reg].ends.push(e); }
    width = K.map_width[state.file];
    // the text column fits the longest line (labels included), within 24-90 characters
    let longest = 0; for (const ln of K.lines) longest = Math.max(longest, ln[1].length + (ln[6] ? ln[6].length + 2 : 0));
    $("listing").style.setProperty("--txt", (Math.min(90, Math.max(24, longest)) + 2) + "ch");
    $("listing").style.setProperty("--cyc", K.cost ? "11ch" : "0");
    state.src = null;
    renderCards(); renderSections(); renderChart(); renderSource(); renderHead(); $("spacer").style.height = (K.lines.length * ROW) + "px"; renderRows();
  }

  // source pane: a row per source line with code (file headers between files); text only through textContent
  function renderSource() {
    const pane = $("source-pane"); pane.innerHTML = "";
    if (!K.source) { pane.hidden = true; return; }
    pane.hidden = false; let file = null;
    K.source.forEach(([name, line, text, instr, issue, stall, vgpr], idx) => {
      if (name !== file) { file = name; const h = document.createElement("div"); h.className = "src-row file"; h.textContent = name; pane.appendChild(h); }
      const r = document.createElement("div"); r.className = "src-row"; r.dataset.src = String(idx);
      if (!instr) r.classList.add("nocode");
      r.innerHTML = '<span class="sln"></span><span class="stxt"></span><span class="scost"></span>';
      r.children[0].textContent = String(line); r.children[1].textContent = text || "";
      r.children[2].textContent = instr ? `${instr} ins` : "";
      r.title = `${name}:${line}: ${instr} instructions` + (issue === null ? "" : `, ${issue} issue / ${stall} stall cycles`) + `, up to ${vgpr} VGPRs live`;
      r.addEventListener("click", () => selectSource(idx, true));
      pane.appendChild(r);
    });
  }
  function sourceRows(idx) { const out = []; for (let i = 0; i < K.src_of.length; i++) if (K.src_of[i] === idx) out.push(i); return out; }
  function selectSource(idx, jump) {
    state.src = idx;
    document.querySelectorAll(".src-row.sel").forEach((e) => e.classList.remove("sel"));
    const r = document.querySelector(`.src-row[data-src="${idx}"]`);
    if (r) { r.classList.add("sel"); if (!jump) r.scrollIntoView({ block: "nearest" }); }
    const rows = sourceRows(idx);
    if (jump && rows.length) goTo(rows[0]); else renderRows();
  }

  // the listing's column headers (sticky: they stay while the rows scroll); same grid and order as the rows
  function renderHead() {
    const file = state.file === "vgpr" ? "VGPR" : "SGPR";
    const cells = [["ln", "line"], ["cyc", K.cost ? "cycles" : ""], ["cnt", "live"], ["map", `${file} map: ${state.file[0]}0, ${state.file[0]}1, ... (click a column)`], ["txt", "ISA instruction"]];
    const h = $("listing-head"); h.innerHTML = "";
    for (const [cls, text] of cells) { const c = document.createElement("span"); c.className = cls; c.textContent = text; h.appendChild(c); }
  }

  function renderCards() {
    const c = K.cards; $("cards").innerHTML = "";
    for (const [k, v] of c) { const d = document.createElement("div"); d.className = "card"; d.innerHTML = `<div class="k"></div><div class="v"></div>`; d.children[0].textContent = k; d.children[1].textContent = v; $("cards").appendChild(d); }
  }

  // timing (per-loop table) and advice (items with links to their lines); text only through textContent
  function lineLink(line) {
    const a = document.createElement("a"); a.textContent = String(line); a.dataset.line = String(line);
    a.addEventListener("click", () => { const i = K.lines.findIndex((r) => r[0] === line); if (i >= 0) goTo(i); });
    return a;
  }
  // a source line named by an advice item or a loop: selects it in the source pane, as a click there does
  function srcLink(label, idx) {
    const a = document.createElement("a"); a.className = "src-link"; a.textContent = label;
    if (idx >= 0) { a.dataset.src = String(idx); a.addEventListener("click", () => selectSource(idx, true)); }
    return a;
  }
  function renderSections() {
    const box = $("sections"); box.innerHTML = "";
    const add = (title) => { const s = document.createElement("section"); const h = document.createElement("h2"); h.textContent = title; s.appendChild(h); box.appendChild(s); return s; };
    if (K.loops) {
      const s = add("timing: cycles per loop iteration (static estimate, docs/timing.md)"), t = document.createElement("table"); t.id = "timing-table";
      const head = t.insertRow(); for (const h of ["loop at line", "depth", "cycles/iteration", "bottleneck"]) { const th = document.createElement("th"); th.textContent = h; head.appendChild(th); }
      if (K.loop_src) { const th = document.createElement("th"); th.textContent = "source lines"; head.appendChild(th); }
      for (const [line, depth, cyc, why] of K.loops) {
        const r = t.insertRow(); r.insertCell().appendChild(lineLink(line)); r.insertCell().textContent = depth; r.insertCell().textContent = cyc; r.insertCell().textContent = why;
        if (K.loop_src) { const c = r.insertCell(), ls = K.loop_src[String(line)]; if (ls) c.appendChild(srcLink(ls[0], ls[1])); }
      }
      s.appendChild(t);
      if (K.timing_kernel) { const p = document.createElement("p"); p.textContent = `kernel: ${K.timing_kernel[0]} cycles; bound: ${K.timing_kernel[1]}`; s.appendChild(p); }
    } else if (K.timing_note) { add("timing").appendChild(document.createTextNode(K.timing_note)); }
    if (K.advice) {
      // ranked by gain (computed with the advice, ordered by the report); every figure is the advice JSON's
      const s = add("advice, largest gain first (docs/advice.md)");
      if (!K.advice.length) { const p = document.createElement("p"); p.textContent = K.advice_refused || "no detector found anything to change"; s.appendChild(p); return; }
      const t = document.createElement("table"); t.id = "advice-table";
      const head = t.createTHead().insertRow();
      for (const h of ["#", "gain", "kind", "effect (before -> after)", "change", "lines", K.advice_src ? "source" : null]) { if (h === null) continue; const th = document.createElement("th"); th.textContent = h; head.appendChild(th); }
      const body = t.createTBody();
      K.advice.forEach(([kind, message, lines, effect, gain], n) => {
        const r = body.insertRow(); r.dataset.kind = kind;
        r.insertCell().textContent = String(n + 1);
        const g = r.insertCell(); g.className = "gain";
        g.textContent = gain ? `+${Math.round(gain.relative * 1000) / 10}% ${gain.figure}` : "-";
        r.insertCell().textContent = kind;
        const e = r.insertCell(); e.className = "effect";
        effect.forEach(([figure, before, after]) => { const d = document.createElement("div"); d.textContent = `${figure} ${before} -> ${after}`; e.appendChild(d); });
        const m = r.insertCell(); m.className = "message"; m.textContent = message;
        const l = r.insertCell(); l.className = "lines";
        lines.slice(0, 12).forEach((ln, j) => { if (j) l.appendChild(document.createTextNode(", ")); l.appendChild(lineLink(ln)); });
        if (lines.length > 12) l.appendChild(document.createTextNode(` ... (${lines.length})`));
        if (K.advice_src) { const c = r.insertCell(); K.advice_src[n].slice(0, 12).forEach(([label, idx], j) => { if (j) c.appendChild(document.createTextNode(", ")); c.appendChild(srcLink(label, idx)); }); }
      });
      s.appendChild(t);
    }
  }

  // chart geometry: plot area inside margins for the axes (left: y ticks and title, bottom: x ticks and title)
  const M = { left: 48, right: 12, top: 8, bottom: 36 };
  let chartX = () => 0;
  // a round step (1, 2 or 5 times a power of ten) giving about `count` intervals over `span`
  // (whole numbers only: registers and instructions are counted)
  function niceStep(span, count) { const raw = Math.max(span, 1) / Math.max(count, 1); if (raw <= 1) return 1; const p = Math.pow(10, Math.floor(Math.log10(raw))); return [1, 2, 5, 10].map((m) => m * p).find((s) => s >= raw); }
  const fmt = (w) => (Number.isInteger(w) ? String(w) : String(Math.round(w * 100) / 100));
  const svgText = (x, y, cls, text, attrs) => `<text class="${cls}" x="${x.toFixed(1)}" y="${y.toFixed(1)}"${attrs || ""}>${text}</text>`;
  const hline = (cls, x1, x2, y, attrs) => `<line class="${cls}" x1="${x1}" x2="${x2}" y1="${y.toFixed(1)}" y2="${y.toFixed(1)}"${attrs || ""}></line>`;

  function renderChart() {
    const svg = $("chart"), n = K.lines.length, W = svg.clientWidth || 1000, H = svg.clientHeight || 220;
    const pw = W - M.left - M.right, ph = H - M.top - M.bottom, R = K.registers;
    const highest = Math.max(K.peak.vgpr, K.peak.sgpr, R ? R.allocated : 0, 1);
    const yStep = niceStep(highest, 5), top = Math.ceil((highest * 1.06) / yStep) * yStep;
    const x = (i) => M.left + (n <= 1 ? 0 : (i / (n - 1)) * pw), y = (v) => M.top + ph - (v / top) * ph;
    chartX = x;
    const step = Math.max(1, Math.floor(n / 4000));
    function poly(col) { const pts = []; for (let i = 0; i < n; i += step) { let m = 0; for (let j = i; j < Math.min(n, i + step); j++) m = Math.max(m, K.lines[j][col]); pts.push(x(i).toFixed(1) + "," + y(m).toFixed(1)); } return pts.join(" "); }
    let html = "";
    // y axis: register counts with grid lines; x axis: instruction positions labelled with their ISA line numbers
    for (let v = 0; v <= top; v += yStep) html += hline("grid", M.left, W - M.right, y(v), ` data-value="${v}"`) + svgText(M.left - 4, y(v) + 3, "ytick", String(v));
    const xStep = niceStep(Math.max(n - 1, 1), Math.max(2, Math.floor(pw / 90)));
    for (let i = 0; i < n; i += xStep) html += `<line class="tick" x1="${x(i).toFixed(1)}" x2="${x(i).toFixed(1)}" y1="${M.top + ph}" y2="${M.top + ph + 4}"></line>` + svgText(x(i), M.top + ph + 14, "xtick", String(K.lines[i][0]), ` data-index="${i}"`);
    html += `<line class="axis" x1="${M.left}" x2="${M.left}" y1="${M.top}" y2="${M.top + ph}"></line><line class="axis" x1="${M.left}" x2="${W - M.right}" y1="${M.top + ph}" y2="${M.top + ph}"></line>`;
    html += svgText(M.left + pw / 2, H - 4, "axis-title", "ISA line (instruction)");
    html += svgText(12, M.top + ph / 2, "axis-title", "live registers", ` transform="rotate(-90 12 ${(M.top + ph / 2).toFixed(1)})"`);
    // occupancy bands: the kernel's waves per SIMD at most this many VGPRs (the occupancy model of the text report)
    let lastY = Infinity;
    for (const [v, w] of K.thresholds) {
      if (v > top) break;
      const crowded = lastY - y(v) < 12;  // keep labels readable: a step closer than 12px keeps its line only
      html += `<g class="threshold" data-vgprs="${v}" data-waves="${w}">` + hline("threshold", M.left, W - M.right, y(v));
      if (!crowded) { html += svgText(M.left + 4, y(v) - 2, "threshold-label", `${fmt(w)} wave${w === 1 ? "" : "s"} &lt;= ${v}`); lastY = y(v); }
      html += "</g>";
    }
    if (R) {  // requested: label under its line; allocated (granule-rounded, never lower): label over it
      html += hline("requested", M.left, W - M.right, y(R.requested), ` data-vgprs="${R.requested}"`) + svgText(W - M.right - 4, y(R.requested) + 11, "requested-label", `requested ${R.requested}`);
      html += hline("allocated", M.left, W - M.right, y(R.allocated), ` data-vgprs="${R.allocated}"`) + svgText(W - M.right - 4, y(R.allocated) - 3, "allocated-label", `allocated ${R.allocated}`);
    }
    html += `<polyline class="vgpr" points="${poly(2)}"></polyline><polyline class="sgpr" points="${poly(3)}"></polyline>`;
    html += svgText(W - M.right, H - 4, "legend", "live VGPRs (blue), SGPRs (green)");
    svg.innerHTML = html;
    document.querySelectorAll(".peak-marker").forEach((e) => e.remove());
    const pk = K.peak_indices.vgpr[0];
    if (pk !== undefined) {
      const m = document.createElement("div"); m.className = "peak-marker"; m.id = "peak-marker";
      m.style.left = x(pk) + "px"; m.style.top = (y(K.lines[pk][2]) - 12) + "px";
      m.title = `VGPR peak ${K.peak.vgpr} at line ${K.lines[pk][0]}`; m.addEventListener("click", (ev) => { ev.stopPropagation(); goTo(pk); });
      $("chart-wrap").appendChild(m);
    }
    const at = (ev) => { const r = svg.getBoundingClientRect(); return Math.max(0, Math.min(n - 1, Math.round(((ev.clientX - r.left - M.left) / pw) * (n - 1)))); };
    svg.onclick = (ev) => goTo(at(ev));
    // hover: the line, its live counts and, where the input maps them, its source line and the variables there
    let tip = $("chart-tip");
    if (!tip) { tip = document.createElement("div"); tip.id = "chart-tip"; tip.hidden = true; $("chart-wrap").appendChild(tip); }
    svg.onmouseleave = () => { tip.hidden = true; };
    svg.onmousemove = (ev) => {
      const i = at(ev), row = K.lines[i], r = svg.getBoundingClientRect();
      let text = `line ${row[0]}: ${row[2]} VGPRs, ${row[3]} SGPRs live`;
      const s = K.src_of ? K.src_of[i] : -1;
      if (s >= 0) { const [name, line, src] = K.source[s]; text += `\nsource ${name}:${line}` + (src ? `: ${src.trim()}` : ""); }
      if (K.variables) {
        const held = K.variables.filter(([, ranges]) => ranges.some(([a, b]) => a <= row[0] && row[0] <= b)).map(([v]) => v);
        text += held.length ? `\nvariables: ${held.join(", ")}` : "\nvariables: none named here";
      }
      tip.textContent = text; tip.hidden = false;
      tip.style.left = Math.min(ev.clientX - r.left + 12, Math.max(0, r.width - 360)) + "px"; tip.style.top = "16px";
    };
  }

  // the listing scrolls the row a third down its height (below the sticky header); the page scrolls as little
  // as it takes to show the row when the listing itself is partly off-screen
  function goTo(i) {
    state.current = i; const l = $("listing"), head = $("listing-head").offsetHeight;
    l.scrollTop = Math.max(0, head + i * ROW - l.clientHeight / 3); renderRows();
    const row = document.querySelector(`#spacer .row[data-index="${i}"]`);
    if (row) { const r = row.getBoundingClientRect(); if (r.top < 0 || r.bottom > window.innerHeight) window.scrollBy(0, r.bottom > window.innerHeight ? r.bottom - window.innerHeight + ROW : r.top - ROW); }
  }

  function renderRows() {
    const l = $("listing"), sp = $("spacer"); const first = Math.max(0, Math.floor(l.scrollTop / ROW) - 20);
    const last = Math.min(K.lines.length, Math.ceil((l.scrollTop + l.clientHeight) / ROW) + 20);
    const live = state.reg === null ? null : (state._liveFor === state.reg ? state._live : (state._liveFor = state.reg, state._live = liveRows(state.reg)));
    const frag = document.createDocumentFragment(); const peak = new Set(K.peak_indices[state.file] || []);
    const col = state.file === "vgpr" ? 2 : 3, top = Math.max(K.peak[state.file], 1), prefix = state.file === "vgpr" ? "v" : "s";
    for (let i = first; i < last; i++) {
      const [line, text, , , block, depth, labels] = K.lines[i];
      const row = document.createElement("div"); row.className = "row"; row.dataset.index = i; row.style.top = (i * ROW) + "px";
      if (depth) row.classList.add("loop" + Math.min(depth, 3));
      if (i > 0 && K.lines[i - 1][4] !== block) row.classList.add("block-start");
      if (peak.has(i)) row.classList.add("peak");
      if (live && live.has(i)) { row.classList.add("hl-live"); const st = regState(state.reg, i); if (st === "^" || st === "x") row.classList.add("hl-def"); else if (st === "v") row.classList.add("hl-use"); }
      if (state.current === i) row.classList.add("current");
      if (state.found === i) row.classList.add("found");
      if (state.src !== null && K.src_of && K.src_of[i] === state.src) row.classList.add("src-hl");
      const cnt = K.lines[i][col];
      let map = ""; for (let r = 0; r < width; r++) { const s = regState(prefix + r, i); map += `<b data-reg="${r}"${state.reg === prefix + r ? ' class="sel"' : ""}>${s}</b>`; }
      // always a cell (empty without timing): the grid places cells in order, and the column may be 0 wide
      const cyc = K.cost ? `<span class="cyc" title="issue cycles / stall cycles (timing model)">${K.cost[i][0]}/${K.cost[i][1]}</span>` : '<span class="cyc"></span>';
      row.innerHTML = `<span class="ln">${line}</span>${cyc}<span class="cnt"><span class="bar" style="width:${(100 * cnt / top).toFixed(0)}%"></span><span class="num">${cnt}</span></span><span class="map">${map}</span><span class="txt"></span>`;
      row.lastChild.textContent = (labels ? labels + ": " : "") + text; row.lastChild.title = row.lastChild.textContent;
      if (labels) row.lastChild.classList.add("label");
      frag.appendChild(row);
    }
    sp.innerHTML = ""; sp.appendChild(frag);
  }

  function search(q) {
    if (!q) return; const n = K.lines.length, start = state.found === null ? 0 : state.found + 1;
    for (let k = 0; k < n; k++) { const i = (start + k) % n; if (K.lines[i][1].includes(q)) { state.found = i; goTo(i); $("search-status").textContent = `line ${K.lines[i][0]}`; return; } }
    $("search-status").textContent = "not found";
  }

  $("listing").addEventListener("scroll", () => requestAnimationFrame(renderRows));
  $("spacer").addEventListener("click", (ev) => { const ln = ev.target.closest(".ln"); if (ln && K.src_of) { const i = Number(ln.parentElement.dataset.index); if (K.src_of[i] >= 0) selectSource(K.src_of[i], false); return; } });
  $("spacer").addEventListener("click", (ev) => { const b = ev.target.closest("b[data-reg]"); if (!b) return; const r = (state.file === "vgpr" ? "v" : "s") + b.dataset.reg; state.reg = state.reg === r ? null : r; renderRows(); });
  $("search").addEventListener("keydown", (ev) => { if (ev.key === "Enter") search(ev.target.value); });
  $("file").addEventListener("change", (ev) => { state.file = ev.target.value; state.reg = null; width = K.map_width[state.file]; renderHead(); renderRows(); });
  const ks = $("kernel"); DATA.kernels.forEach((k, i) => { const o = document.createElement("option"); o.value = i; o.textContent = k.name; ks.appendChild(o); });
  ks.addEventListener("change", (ev) => selectKernel(Number(ev.target.value)));
  window.isalens = {
    data: DATA, select: selectKernel, goTo: goTo, chartX: (i) => chartX(i),
    selectRegister: (r) => { state.reg = r; renderRows(); },
    liveRows: (reg) => Array.from(liveRows(reg)).sort((a, b) => a - b),
    state: state, render: renderRows, sourceRows: sourceRows, selectSource: selectSource,
  };
  selectKernel(0);
})();
