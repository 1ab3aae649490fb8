// isalens serve: the page. Plain JavaScript, no framework; the server sends the analyze --json figures
// (isalens/serve/view.py), this draws them and links editor and listing through the source lines.
"use strict";
(function () {
  const $ = (id) => document.getElementById(id);
  const el = (tag, cls, text) => {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined) e.textContent = text;
    return e;
  };
  const DEBOUNCE_MS = 300;
  const st = {
    files: [], file: null, targets: [], active: null, results: {}, pinned: {}, kernel: 0,
    seq: 0, latest: 0, lastEdit: 0, ws: null, timer: null, linked: 0, editor: null, queue: [],
  };
  window.isalens = st; // for the browser tests and the curious

  // ---- editor: CodeMirror 5 (Debian's libjs-codemirror) or a plain text area with line numbers
  function loadScript(src) {
    return new Promise((ok, fail) => {
      const s = document.createElement("script");
      s.src = src; s.onload = ok; s.onerror = fail;
      document.head.appendChild(s);
    });
  }
  function modeOf(name) {
    if (/\.(hip|cpp|cu)$/i.test(name)) return "text/x-c++src";
    if (/\.(comp|frag|vert|glsl|hlsl)$/i.test(name)) return "x-shader/x-fragment";
    if (/\.(cl|h)$/i.test(name)) return "text/x-csrc";
    return null;
  }
  async function makeEditor(kind) {
    const host = $("editor");
    if (kind === "codemirror") {
      try {
        const css = document.createElement("link");
        css.rel = "stylesheet"; css.href = "/static/codemirror.css";
        document.head.appendChild(css);
        await loadScript("/static/codemirror.js");
        await loadScript("/static/clike.js");
        await loadScript("/static/matchbrackets.js");
        return codeMirrorEditor(host);
      } catch (e) { /* fall through to the text area */ }
    }
    const note = $("editor-note");
    note.hidden = false;
    note.textContent = "Plain text area: no code editor found (install Debian's libjs-codemirror for highlighting).";
    return plainEditor(host);
  }
  function codeMirrorEditor(host) {
    const cm = window.CodeMirror(host, { lineNumbers: true, matchBrackets: true, indentUnit: 4, undoDepth: 500 });
    let linked = [], errs = [];
    return {
      kind: "codemirror", cm,
      get: () => cm.getValue(),
      set: (text, name) => { cm.setOption("mode", modeOf(name)); cm.setValue(text); cm.clearHistory(); },
      onChange: (f) => cm.on("changes", () => f()),
      onLine: (f) => cm.on("cursorActivity", () => f(cm.getCursor().line + 1)),
      link: (lines) => {
        linked.forEach((l) => cm.removeLineClass(l, "background", "cm-linked"));
        linked = lines.map((n) => cm.addLineClass(n - 1, "background", "cm-linked"));
        if (lines.length) cm.scrollIntoView({ line: lines[0] - 1, ch: 0 }, 80);
      },
      goto: (n) => { cm.setCursor({ line: n - 1, ch: 0 }); cm.focus(); },
      marks: (messages) => {
        errs.forEach((m) => m.clear ? m.clear() : cm.removeLineClass(m, "background", "cm-err"));
        errs = [];
        for (const m of messages) {
          if (!m.edited || !m.line) continue;
          errs.push(cm.addLineClass(m.line - 1, "background", "cm-err"));
          errs.push(cm.addLineWidget(m.line - 1, el("div", "cm-msg", `${m.severity}: ${m.message}`)));
        }
      },
    };
  }
  function plainEditor(host) {
    const box = el("div", "plain"), gutter = el("div", "gutter"), ta = el("textarea");
    ta.spellcheck = false;
    box.append(gutter, ta); host.appendChild(box);
    const numbers = () => {
      const n = ta.value.split("\n").length;
      let s = "";
      for (let i = 1; i <= n; i++) s += i + "\n";
      gutter.textContent = s;
    };
    ta.addEventListener("scroll", () => { gutter.scrollTop = ta.scrollTop; });
    const lineAt = () => ta.value.slice(0, ta.selectionStart).split("\n").length;
    const offsetOf = (n) => { const ls = ta.value.split("\n"); let o = 0; for (let i = 0; i < n - 1; i++) o += ls[i].length + 1; return o; };
    return {
      kind: "textarea", ta,
      get: () => ta.value,
      set: (text) => { ta.value = text; numbers(); },
      onChange: (f) => ta.addEventListener("input", () => { numbers(); f(); }),
      onLine: (f) => { ta.addEventListener("click", () => f(lineAt())); ta.addEventListener("keyup", () => f(lineAt())); },
      link: (lines) => { if (lines.length) ta.scrollTop = (lines[0] - 3) * 16; },
      goto: (n) => { const o = offsetOf(n); ta.focus(); ta.setSelectionRange(o, o); ta.scrollTop = (n - 3) * 16; },
      marks: () => {},
    };
  }

  // ---- the connection
  function connect() {
    const ws = new WebSocket(`ws://${location.host}/ws`);
    st.ws = ws;
    ws.onopen = () => {
      status("connected");
      const q = st.queue; st.queue = []; q.forEach(send);
      if (!q.length && !st.results[st.active]) compileNow(); // after a reconnect
    };
    ws.onclose = () => { status("connection lost: reconnecting", true); setTimeout(connect, 1000); };
    ws.onmessage = (ev) => receive(JSON.parse(ev.data));
  }
  function send(msg) {
    if (st.ws && st.ws.readyState === 1) st.ws.send(JSON.stringify(msg));
    else st.queue.push(msg);
  }
  function status(text, bad) { const s = $("status"); s.textContent = text; s.title = text; s.classList.toggle("bad", !!bad); }
  function options() {
    return {
      defines: $("defines").value.split(/\s+/).filter(Boolean),
      opt: $("opt").value, cl_std: $("clstd").value, debug_variables: $("dbgvars").checked,
    };
  }
  function compileNow() {
    if (!st.file || !st.active) return;
    st.seq += 1; st.latest = st.seq;
    const others = st.targets.filter((t) => t !== st.active);
    // "id" first: a refused 50 MB message still names its request in its first bytes
    st.sent = { id: st.seq, source: st.editor.get() };
    send({ id: st.seq, type: "compile", file: st.file, source: st.sent.source, targets: [st.active, ...others], ...options() });
  }
  function edited() {
    st.lastEdit = performance.now();
    clearTimeout(st.timer);
    st.timer = setTimeout(compileNow, DEBOUNCE_MS);
    status("edited: compiling after a pause");
  }

  function receive(m) {
    if (m.type === "status") { if (m.id === st.latest) status(`compiling for ${m.arch}…`); return; }
    if (m.type === "saved") { status(`saved ${m.bytes} bytes to ${m.file}`); return; }
    if (m.type === "snapshot") {
      const a = el("a"); a.href = m.url; a.download = ""; document.body.appendChild(a); a.click(); a.remove();
      status("HTML snapshot downloaded"); return;
    }
    if (m.type === "error") { status(m.message, true); return; }
    if (m.type !== "result" || m.id !== st.latest) return; // an older edit's answer: a newer one is coming
    const r = st.results[m.arch] || (st.results[m.arch] = {});
    r.id = m.id; r.seconds = m.seconds;
    if (m.ok) {
      // a partial answer has every figure but the advice; the final one follows for the same id
      r.view = m.view; r.error = null; r.partial = !!m.partial;
      r.sourceText = st.sent && st.sent.id === m.id ? st.sent.source : st.editor.get();
      if (r.latencyId !== m.id) { r.latencyId = m.id; r.latency = st.lastEdit ? (performance.now() - st.lastEdit) / 1000 : null; }
    } else {
      r.error = m.error; // the last good view stays on screen
    }
    if (m.arch === st.active) render();
  }

  // ---- drawing
  function fmt(v) { return v === null || v === undefined ? "n/a" : typeof v === "number" ? String(Math.round(v * 100) / 100) : String(v); }
  function deltaSpan(cur, base, lowerIsBetter) {
    if (typeof cur !== "number" || typeof base !== "number") return null;
    const d = Math.round((cur - base) * 100) / 100;
    const s = el("span", "delta " + (d === 0 ? "same" : (d < 0) === lowerIsBetter ? "better" : "worse"),
      d === 0 ? "±0" : (d > 0 ? "+" : "") + d);
    s.dataset.delta = String(d);
    return s;
  }
  const FIGURES = [
    ["vgpr_peak", "VGPR peak", true], ["vgpr_requested", "VGPRs requested", true], ["sgpr_peak", "SGPR peak", true],
    ["waves_per_simd", "occupancy (waves/SIMD)", false], ["limited_by", "limited by", null],
    ["cycles_per_iteration", "cycles (whole kernel)", true], ["code_bytes", "code bytes", true], ["instructions", "instructions", true],
  ];
  function currentKernel() {
    const r = st.results[st.active];
    if (!r || !r.view || !r.view.kernels.length) return null;
    return r.view.kernels[Math.min(st.kernel, r.view.kernels.length - 1)];
  }
  function pinnedKernel(k) {
    const p = st.pinned[st.active];
    if (!p || !k) return null;
    return p.view.kernels.find((x) => x.name === k.name) || null;
  }
  function render() {
    renderTabs();
    const r = st.results[st.active];
    const msgs = $("messages"); msgs.textContent = "";
    if (r && r.error) {
      status(`compile failed${r.view ? " (showing the last good result)" : ""}: ${r.error.message}`, true);
      st.editor.marks(r.error.messages || []);
      for (const m of r.error.messages || []) {
        const d = el("div", m.severity, `${m.file}:${m.line}: ${m.severity}: ${m.message}`);
        if (m.edited) d.onclick = () => st.editor.goto(m.line);
        msgs.appendChild(d);
      }
      if (!(r.error.messages || []).length) msgs.appendChild(el("div", "error", r.error.message));
    } else if (r && r.view) {
      st.editor.marks([]);
      const lat = r.latency == null ? "" : `, ${r.latency.toFixed(2)} s after the last edit`;
      status(`${st.active}: compiled and analysed in ${r.seconds} s${lat}${r.partial ? "; advice follows" : ""}`);
      $("status").dataset.latency = r.latency == null ? "" : String(r.latency);
    }
    const k = currentKernel();
    const ksel = $("kernel"); ksel.textContent = "";
    ((r && r.view && r.view.kernels) || []).forEach((x, i) => { const o = el("option", null, x.name); o.value = i; ksel.appendChild(o); });
    ksel.value = String(st.kernel);
    if (!k) { $("figures").textContent = ""; $("listing").textContent = ""; return; }
    const base = pinnedKernel(k);
    renderFigures(k, base);
    renderChart(k);
    renderListing(k);
    renderLoops(k, base);
    renderAdvice(k);
    renderDiff(k, base);
    if (st.linked) linkSource(st.linked, false);
  }
  function renderTabs() {
    const tabs = $("tabs"); tabs.textContent = "";
    for (const t of st.targets) {
      const b = el("button", t === st.active ? "on" : "", t);
      b.type = "button"; b.dataset.target = t;
      const r = st.results[t];
      if (r && r.error) b.textContent += " ⚠";
      b.onclick = () => { st.active = t; if (!st.results[t]) compileNow(); render(); };
      if (st.targets.length > 1) {
        const x = el("span", "x", "×");
        x.onclick = (ev) => { ev.stopPropagation(); st.targets = st.targets.filter((y) => y !== t); if (st.active === t) st.active = st.targets[0]; render(); };
        b.appendChild(x);
      }
      tabs.appendChild(b);
    }
    $("pin").textContent = st.pinned[st.active] ? "Unpin" : "Pin";
  }
  function renderFigures(k, base) {
    const box = $("figures"); box.textContent = "";
    const f = k.figures, b = base ? base.figures : null;
    for (const [key, label, lower] of FIGURES) {
      const d = el("div", "fig"); d.id = "fig-" + key;
      d.appendChild(el("span", "k", label));
      let text = fmt(f[key]);
      if (key === "waves_per_simd") text = `${fmt(f.waves_per_simd)} of ${fmt(f.max_waves_per_simd)}`;
      if (key === "limited_by") text = (f.limited_by || []).join(", ") || "n/a";
      const v = el("span", "v", text); v.dataset.value = key === "limited_by" ? text : String(f[key]);
      d.appendChild(v);
      if (b && lower !== null) { const s = deltaSpan(f[key], b[key], lower); if (s) d.appendChild(s); }
      box.appendChild(d);
    }
    const next = f.next_step || {};
    const parts = Object.entries(next).filter(([key]) => key !== "waves_per_simd").map(([key, v]) => `${v} ${key.replace(/_/g, " ").replace(" to remove", "")} fewer`);
    if (parts.length) box.appendChild(el("div", "fig", `next level (${next.waves_per_simd} waves): ${parts.join(", ")}`));
  }
  function renderChart(k) {
    const svg = $("chart"); svg.textContent = "";
    const w = svg.clientWidth || 600, h = svg.clientHeight || 90, n = k.lines.length;
    if (!n) return;
    const top = Math.max(k.figures.vgpr_requested || 0, ...k.lines.map((r) => r[2]), 1);
    const x = (i) => (i + 0.5) * w / n, y = (v) => h - 4 - v * (h - 10) / top;
    const NS = "http://www.w3.org/2000/svg";
    const mk = (tag, attrs) => { const e = document.createElementNS(NS, tag); for (const a in attrs) e.setAttribute(a, attrs[a]); svg.appendChild(e); return e; };
    mk("line", { x1: 0, x2: w, y1: y(k.figures.vgpr_requested || 0), y2: y(k.figures.vgpr_requested || 0), stroke: "#999", "stroke-dasharray": "4 3" });
    mk("polyline", { points: k.lines.map((r, i) => `${x(i).toFixed(1)},${y(r[2]).toFixed(1)}`).join(" "), fill: "none", stroke: "#dc2626", "stroke-width": 1.2 });
    mk("polyline", { points: k.lines.map((r, i) => `${x(i).toFixed(1)},${y(r[3]).toFixed(1)}`).join(" "), fill: "none", stroke: "#2563eb", "stroke-width": 0.8, opacity: 0.6 });
    for (const i of k.peak.slice(0, 1)) mk("circle", { cx: x(i), cy: y(k.lines[i][2]), r: 4, fill: "#dc2626" });
    const t = mk("text", { x: 4, y: 12, "font-size": 11, fill: "#444" });
    t.textContent = `live VGPRs (red, peak ${k.figures.vgpr_peak}), SGPRs (blue); dashed: ${k.figures.vgpr_requested} requested`;
    svg.onclick = (ev) => { const r = svg.getBoundingClientRect(); scrollToRow(Math.floor((ev.clientX - r.left) / r.width * n)); };
  }
  function renderListing(k) {
    const box = $("listing"); box.textContent = "";
    const top = Math.max(k.figures.vgpr_peak, 1), peak = new Set(k.peak), frag = document.createDocumentFragment();
    k.lines.forEach((r, i) => {
      const row = el("div", "row" + (r[6] ? " d" + Math.min(r[6], 3) : "") + (peak.has(i) ? " peak" : ""));
      row.dataset.index = i; row.dataset.src = r[4];
      row.appendChild(el("span", "n", String(r[0])));
      const live = el("span", "live"), bar = el("i");
      bar.style.width = (r[2] * 60 / top).toFixed(0) + "px";
      live.append(bar, el("b", null, `${r[2]}v ${r[3]}s`));
      row.appendChild(live);
      row.appendChild(el("span", "src", r[4] ? String(r[4]) : r[5] || ""));
      const t = el("span", "t");
      if (r[7]) t.appendChild(el("span", "label", r[7] + ": "));
      t.appendChild(document.createTextNode(r[1]));
      row.appendChild(t);
      frag.appendChild(row);
    });
    box.appendChild(frag);
    box.onclick = (ev) => {
      const row = ev.target.closest(".row");
      if (!row) return;
      const i = Number(row.dataset.index), src = Number(row.dataset.src);
      if (src) { st.editor.goto(src); linkSource(src, false); }
      lineInfo(k, i);
    };
  }
  function lineInfo(k, i) {
    const r = k.lines[i], vars = [];
    for (const v of k.variables) for (const [a, b, regs] of v.ranges) if (a <= i && i <= b) vars.push(`${v.name}: ${regs.join(" ")}`);
    $("line-info").textContent = `ISA line ${r[0]}: ${r[2]} VGPRs, ${r[3]} SGPRs live` + (r[4] ? `; source line ${r[4]}` : "") +
      (vars.length ? `; variables: ${vars.join("; ")}` : k.variables.length ? "; no variable in a register here" : "");
  }
  function linkSource(n, scroll) {
    st.linked = n;
    const rows = document.querySelectorAll("#listing .row");
    let first = null, count = 0;
    rows.forEach((row) => { const on = Number(row.dataset.src) === n; row.classList.toggle("hl", on); if (on) { count++; if (!first) first = row; } });
    if (first && scroll !== false) first.scrollIntoView({ block: "center" });
    if (scroll !== false) $("line-info").textContent = `source line ${n}: ${count} ISA line(s)`;
    st.editor.link(count ? [n] : []);
  }
  function scrollToRow(i) {
    const row = document.querySelector(`#listing .row[data-index="${i}"]`);
    if (row) { row.scrollIntoView({ block: "center" }); row.click(); }
  }
  function renderLoops(k, base) {
    const box = $("loops"); box.textContent = "";
    if (!k.loops.length) { box.appendChild(el("p", "note", k.figures.timing_unavailable || "no loops")); return; }
    const t = el("table"), head = el("tr");
    ["ISA line", "source", "depth", "cycles / iteration", "Δ pinned", "trip count", "bottleneck"].forEach((h) => head.appendChild(el("th", null, h)));
    t.appendChild(head);
    k.loops.forEach((lp, j) => {
      const tr = el("tr"), b = base && base.loops[j];
      const cells = [lp.index >= 0 ? k.lines[lp.index][0] : "?", lp.source_line || "", lp.depth, fmt(lp.cycles_per_iteration)];
      cells.forEach((c) => tr.appendChild(el("td", null, String(c))));
      const dtd = el("td"); const s = b ? deltaSpan(lp.cycles_per_iteration, b.cycles_per_iteration, true) : null; if (s) dtd.appendChild(s);
      tr.append(dtd, el("td", null, fmt(lp.trip_count)), el("td", null, lp.bottleneck || ""));
      tr.onclick = () => { if (lp.index >= 0) scrollToRow(lp.index); };
      t.appendChild(tr);
    });
    box.appendChild(t);
  }
  function renderAdvice(k) {
    const box = $("advice"); box.textContent = "";
    const r = st.results[st.active];
    if (r && r.partial) { box.appendChild(el("p", "note", "advice follows…")); return; }
    if (!k.advice.length) box.appendChild(el("p", "note", k.advice_refused || "no advice"));
    for (const a of k.advice) {
      const d = el("div", "advice-item", `[${a.kind}] ${a.message}`);
      if (a.lines.length) d.onclick = () => scrollToRow(a.lines[0]);
      box.appendChild(d);
    }
  }

  // ---- pin and compare: the listing diff aligned by source line (lines matched through a diff of the two sources)
  function lineMap(a, b) {
    // LCS of the two sources' lines -> for each line of b (1-based) the matching line of a, or 0
    const n = a.length, m = b.length, map = new Array(m + 1).fill(0);
    if (n * m > 4e6) { for (let j = 1; j <= m; j++) map[j] = j <= n ? j : 0; return map; }
    const L = Array.from({ length: n + 1 }, () => new Uint16Array(m + 1));
    for (let i = n - 1; i >= 0; i--) for (let j = m - 1; j >= 0; j--) L[i][j] = a[i] === b[j] ? L[i + 1][j + 1] + 1 : Math.max(L[i + 1][j], L[i][j + 1]);
    let i = 0, j = 0;
    while (i < n && j < m) {
      if (a[i] === b[j]) { map[j + 1] = i + 1; i++; j++; } else if (L[i + 1][j] >= L[i][j + 1]) i++; else j++;
    }
    return map;
  }
  function groups(k) {
    const g = new Map();
    for (const r of k.lines) { const key = r[4] || 0; if (!g.has(key)) g.set(key, []); g.get(key).push(r[1]); }
    return g;
  }
  function mnemonics(list) { return list.map((t) => t.split(/\s+/)[0]).join(" "); }
  function renderDiff(k, base) {
    const box = $("diff"); box.textContent = "";
    const p = st.pinned[st.active];
    if (!base) { box.appendChild(el("p", "note", p ? `the pinned result has no kernel ${k.name}` : "Pin a result to compare with it.")); return; }
    const cur = (st.results[st.active].sourceText || st.editor.get()).split("\n"), old = p.source.split("\n");
    const map = lineMap(old, cur), gb = groups(base), gc = groups(k);
    const rows = [], used = new Set();
    for (let j = 1; j <= cur.length; j++) {
      const i = map[j];
      // baseline lines deleted before this one
      if (i) for (let d = 1; d < i; d++) if (!used.has(d) && gb.has(d)) { used.add(d); rows.push([d, 0, old[d - 1], gb.get(d), []]); }
      if (i) used.add(i);
      const left = i ? gb.get(i) || [] : [], right = gc.get(j) || [];
      if (left.length || right.length) rows.push([i, j, cur[j - 1], left, right]);
    }
    for (const [d, list] of gb) if (d && !used.has(d)) rows.push([d, 0, old[d - 1], list, []]);
    if (gb.has(0) || gc.has(0)) rows.push([0, 0, "(no source line)", gb.get(0) || [], gc.get(0) || []]);
    const changedOnly = el("label"), cb = el("input"); cb.type = "checkbox"; cb.checked = true;
    changedOnly.append(cb, " changed lines only");
    const summary = el("p", "note");
    const t = el("table");
    t.innerHTML = "<colgroup><col style='width:70px'><col style='width:30%'><col><col></colgroup>";
    const head = el("tr");
    ["line (pinned→now)", "source", `pinned (${base.lines.length} instructions)`, `now (${k.lines.length})`].forEach((h) => head.appendChild(el("th", null, h)));
    t.appendChild(head);
    let changed = 0;
    for (const [i, j, text, left, right] of rows) {
      const same = mnemonics(left) === mnemonics(right);
      if (!same) changed++;
      const tr = el("tr", "diff-row " + (same ? "same" : "changed"));
      tr.dataset.pinned = i; tr.dataset.now = j;
      tr.appendChild(el("td", "ln", `${i || "–"}→${j || "–"}` + (same ? "" : `  ${right.length - left.length >= 0 ? "+" : ""}${right.length - left.length}`)));
      tr.appendChild(el("td", null, (text || "").trim()));
      const l = el("td"), r = el("td");
      l.appendChild(el("pre", null, left.join("\n"))); r.appendChild(el("pre", null, right.join("\n")));
      tr.append(l, r);
      if (j) tr.onclick = () => { st.editor.goto(j); linkSource(j); };
      t.appendChild(tr);
    }
    const apply = () => t.querySelectorAll("tr.same").forEach((tr) => { tr.hidden = cb.checked; });
    cb.onchange = apply; apply();
    summary.textContent = `${changed} source line(s) whose instructions changed (by mnemonic), of ${rows.length}`;
    box.append(summary, changedOnly, t);
  }

  // ---- wiring
  function showPane(name) {
    document.querySelectorAll("#pane-tabs button").forEach((b) => b.classList.toggle("on", b.dataset.pane === name));
    document.querySelectorAll(".pane").forEach((p) => { p.hidden = p.id !== name; });
  }
  async function openFile(name) {
    const res = await fetch("/api/file?name=" + encodeURIComponent(name));
    const doc = await res.json();
    if (!res.ok) { status(doc.error, true); return; }
    st.file = name; st.results = {}; st.pinned = {}; st.linked = 0;
    st.editor.set(doc.text, name);
    compileNow();
  }
  async function main() {
    if (location.search.includes("token=")) history.replaceState(null, "", "/"); // the cookie carries it now
    const state = await (await fetch("/api/state")).json();
    st.files = state.files; st.targets = state.initial_targets.slice(); st.active = st.targets[0];
    $("defines").value = state.defines.join(" ");
    for (const f of st.files) $("file").appendChild(el("option", null, f));
    for (const t of state.targets) { const o = el("option", null, `${t.name} (${t.family})`); o.value = t.name; $("add-target").appendChild(o); }
    st.editor = await makeEditor(state.editor);
    st.editor.onChange(edited);
    st.editor.onLine((n) => { if (n !== st.linked && currentKernel()) linkSource(n); });
    $("file").onchange = () => openFile($("file").value);
    $("add-target").onchange = () => {
      const t = $("add-target").value; $("add-target").value = "";
      if (t && !st.targets.includes(t)) st.targets.push(t);
      if (t) { st.active = t; compileNow(); render(); }
    };
    $("options").onchange = () => { st.results = {}; compileNow(); };
    $("options").onsubmit = (ev) => { ev.preventDefault(); st.results = {}; compileNow(); };
    $("kernel").onchange = () => { st.kernel = Number($("kernel").value); render(); };
    $("pin").onclick = () => {
      const r = st.results[st.active];
      if (st.pinned[st.active]) delete st.pinned[st.active];
      else if (r && r.view) st.pinned[st.active] = { view: r.view, source: r.sourceText || st.editor.get() };
      render();
    };
    $("save").onclick = () => send({ id: ++st.seq, type: "save", file: st.file, source: st.editor.get() });
    $("snapshot").onclick = () => send({ id: ++st.seq, type: "snapshot", file: st.file, source: st.editor.get(), targets: [st.active], ...options() });
    document.querySelectorAll("#pane-tabs button").forEach((b) => { b.onclick = () => showPane(b.dataset.pane); });
    renderTabs();
    await openFile(st.files[0]);
    connect();
  }
  main();
})();
