// The report in a real browser: Debian's headless Chromium driven by puppeteer-core (no browser
// download). Builds the reports of Inkala's puzzle and of a deep one (line 358 of
// tests/data/forum-hardest-1106.txt) and a small index, opens them through file://, and checks the
// step-through viewer, the moves of a derivation stepped one at a time, the links between chain
// lines and steps, the collection links, the size of the pencil marks, the 18 coordinate labels
// of every grid picture, the tree's proof path above its folded boxes, that nothing overflows the
// page, and that the screenshots are not blank.
//
//   node tests/browser/report.test.js [path/to/hdp]     (default: target/release/hdp)
"use strict";

const assert = require("node:assert/strict");
const { spawnSync } = require("node:child_process");
const fs = require("node:fs");
const path = require("node:path");
const puppeteer = require("puppeteer-core");

const repo = path.resolve(__dirname, "../..");
const hdp = path.resolve(process.argv[2] || path.join(repo, "target/release/hdp"));
const INKALA = "8..........36......7..9.2...5...7.......457.....1...3...1....68..85...1..9....4..";
const DEEP = fs
  .readFileSync(path.join(repo, "tests/data/forum-hardest-1106.txt"), "utf8")
  .split("\n")[357]
  .trim();

function chromiumPath() {
  const found = spawnSync("which", ["chromium"], { encoding: "utf8" });
  if (found.status !== 0) {
    throw new Error("chromium is not installed (apt-get install chromium)");
  }
  return found.stdout.trim();
}

/// `hdp report ARGS -o DIR`; the exit code may be 1 (a puzzle with a problem), not 2.
function report(args, dir) {
  const r = spawnSync(hdp, ["report", ...args, "-o", dir], { encoding: "utf8" });
  assert.ok(r.status === 0 || r.status === 1, `hdp report ${args}: ${r.status} ${r.stderr}`);
  return path.join(dir, "index.html");
}

/// The state of the viewer: counter, current step's line and picture.
async function viewerState(page) {
  return page.evaluate(() => {
    const current = document.querySelector("#viewer li.step.current");
    const img = current && current.querySelector("img");
    return {
      counter: document.querySelector("#viewer .counter").textContent,
      id: current && current.id,
      visible: document.querySelectorAll("#viewer li.step").length,
      shown: [...document.querySelectorAll("#viewer li.step")].filter((s) => s.offsetParent !== null)
        .length,
      line: current && current.querySelector(".text").textContent,
      src: img ? img.getAttribute("src") : null,
      hash: location.hash,
    };
  });
}

/// Waits for the current step's picture to be drawn.
async function pictureLoaded(page) {
  await page.waitForFunction(() => {
    const img = document.querySelector("#viewer li.step.current img");
    return !img || (img.complete && img.naturalWidth > 0);
  });
}

/// Pixel variance of a PNG screenshot, computed by the browser itself (no image library).
async function variance(browser, png) {
  const page = await browser.newPage();
  const v = await page.evaluate(async (b64) => {
    const img = new Image();
    img.src = "data:image/png;base64," + b64;
    await img.decode();
    const c = document.createElement("canvas");
    c.width = img.naturalWidth;
    c.height = img.naturalHeight;
    const ctx = c.getContext("2d");
    ctx.drawImage(img, 0, 0);
    const d = ctx.getImageData(0, 0, c.width, c.height).data;
    let sum = 0;
    let sq = 0;
    const n = d.length / 4;
    for (let i = 0; i < d.length; i += 4) {
      const y = (d[i] + d[i + 1] + d[i + 2]) / 3;
      sum += y;
      sq += y * y;
    }
    const mean = sum / n;
    return sq / n - mean * mean;
  }, Buffer.from(png).toString("base64"));
  await page.close();
  return v;
}

/// Elements sticking out of the viewport, except inside a container that scrolls or clips them.
async function overflowing(page) {
  return page.evaluate(() => {
    const width = document.documentElement.clientWidth;
    const bad = [];
    for (const el of document.body.querySelectorAll("*")) {
      const r = el.getBoundingClientRect();
      if (r.width === 0 || (r.right <= width + 1 && r.left >= -1)) {
        continue;
      }
      let contained = false;
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) {
        const o = getComputedStyle(a).overflowX;
        if (o === "auto" || o === "scroll" || o === "hidden") {
          const ar = a.getBoundingClientRect();
          contained = ar.right <= width + 1 && ar.left >= -1;
          break;
        }
      }
      if (!contained) {
        bad.push(`${el.tagName.toLowerCase()}.${el.className} ${Math.round(r.left)}..${Math.round(r.right)}`);
      }
    }
    return { bad, scroll: document.documentElement.scrollWidth, width };
  });
}

/// The displayed size of the pencil marks (12 px text) of the propagated grid.
async function pencilMarkSizes(page) {
  return page.evaluate(() => {
    const svg = document.querySelector("#positions figure.propagated svg");
    const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
    const sizes = [];
    for (const t of svg.querySelectorAll("text")) {
      const size = parseFloat(t.getAttribute("font-size") || t.closest("[font-size]").getAttribute("font-size"));
      if (size < 20) {
        sizes.push(size * scale);
      }
    }
    return sizes;
  });
}

/// The 18 labels of a grid picture's `coords` group, as text: "ABCDEFGHI123456789" when all
/// are there (letters across, digits down).
function labelsOf(svgText) {
  const m = /<g class="coords"[^>]*>([\s\S]*?)<\/g>/.exec(svgText);
  if (!m) {
    return "";
  }
  const texts = [...m[1].matchAll(/<text[^>]*>\s*([^<]*?)\s*<\/text>/g)].map((t) => t[1]);
  return texts.filter((t) => /^[A-I]$/.test(t)).join("") + texts.filter((t) => /^[1-9]$/.test(t)).join("");
}

/// Every grid picture of the page, drawn inline or as an <img> of a file of the report, has its
/// 18 coordinate labels. Returns how many were checked.
async function checkGridLabels(page, dir, name) {
  const inline = await page.$$eval("svg", (svgs) =>
    svgs.filter((s) => s.querySelector("line") && s.querySelectorAll("rect").length >= 1).map((s) => s.outerHTML));
  const files = await page.$$eval("img", (imgs) => imgs.map((i) => i.getAttribute("src")));
  let grids = 0;
  for (const svg of inline) {
    assert.equal(labelsOf(svg), "ABCDEFGHI123456789", `${name}: an inline grid's labels`);
    grids += 1;
  }
  for (const src of files) {
    const text = fs.readFileSync(path.join(dir, src), "utf8");
    if (src.startsWith("steps/")) {
      assert.equal(labelsOf(text), "ABCDEFGHI123456789", `${name}: ${src}'s labels`);
      grids += 1;
    } else {
      assert.equal(labelsOf(text), "", `${name}: ${src} is a tree, not a grid`);
    }
  }
  assert.ok(grids >= 5, `${name}: only ${grids} grid pictures`);
  return grids;
}

/// The state of a derivation's picture in the proof by contradiction: its counter, which move
/// groups and contradiction groups are displayed, the current move and its list item.
async function movesState(page, index) {
  return page.evaluate((i) => {
    const box = document.querySelectorAll("#contradiction-proof .derivation[data-moves]")[i];
    const shown = (e) => getComputedStyle(e).display !== "none";
    const groups = [...box.querySelectorAll("svg g.move")];
    const now = groups.filter((g) => g.classList.contains("now"));
    return {
      total: parseInt(box.getAttribute("data-moves"), 10),
      counter: box.querySelector(".move-counter").textContent,
      controls: box.querySelector(".move-controls").offsetParent !== null,
      drawn: groups.filter(shown).map((g) => parseInt(g.getAttribute("data-move"), 10)),
      end: [...box.querySelectorAll("svg g.end")].map(shown),
      now: now.map((g) => g.getAttribute("data-move")),
      pattern: now.map((g) => getComputedStyle(g.querySelector(".pattern")).visibility),
      item: [...box.querySelectorAll("ol.moves li.now")].map((li) => li.getAttribute("data-move")),
      selected: box.closest("li").classList.contains("selected"),
    };
  }, index);
}

const upTo = (k) => Array.from({ length: k }, (_, i) => i + 1);

/// The moves of the proof by contradiction's lines, one at a time: the buttons and the keys
/// "," and "." of the selected line move its counter, show the move groups up to the current
/// move (the contradiction at the last), outline the current move's pattern and mark its line
/// in the list; the other lines do not move; ← and → still step the chain's viewer.
async function checkMoves(page, name) {
  const count = await page.$$eval("#contradiction-proof .derivation[data-moves]", (b) => b.length);
  assert.ok(count >= 2, `${name}: ${count} derivation pictures to step through`);
  // The line with the most moves, and another one.
  const totals = await page.$$eval("#contradiction-proof .derivation[data-moves]", (bs) =>
    bs.map((b) => parseInt(b.getAttribute("data-moves"), 10)));
  const pick = totals.indexOf(Math.max(...totals));
  const other = pick === 0 ? 1 : 0;
  let s = await movesState(page, pick);
  const total = s.total;
  assert.ok(total >= 3, `${name}: the longest derivation has ${total} moves`);
  assert.equal(s.counter, `move 0 of ${total}`, `${name}: starts at the hypothesis`);
  assert.ok(s.controls, `${name}: move controls shown`);
  assert.deepEqual(s.drawn, [], `${name}: no move drawn at the start`);
  assert.ok(s.end.length > 0 && s.end.every((e) => !e), `${name}: contradiction hidden at the start`);
  assert.deepEqual(s.item, ["0"], `${name}: the hypothesis is the current line of the list`);
  const before = await movesState(page, other);
  // Select the line by a click on its chain line, then step with the keys.
  await page.$$eval("#contradiction-proof .derivation[data-moves]", (bs, i) =>
    bs[i].closest("li").querySelector(".chain").scrollIntoView(), pick);
  const lines = await page.$$("#contradiction-proof .derivation[data-moves]");
  await (await lines[pick].evaluateHandle((b) => b.closest("li").querySelector(".chain"))).click();
  assert.ok((await movesState(page, pick)).selected, `${name}: a click selects the line`);
  const viewerBefore = (await viewerState(page)).counter;
  for (let k = 1; k <= 3; k++) {
    await page.keyboard.press(".");
    s = await movesState(page, pick);
    assert.equal(s.counter, `move ${k} of ${total}`, `${name}: "." ${k}`);
    assert.deepEqual(s.drawn, upTo(k), `${name}: moves 1..${k} drawn`);
    assert.deepEqual(s.now, [String(k)], `${name}: move ${k} is the current one`);
    assert.deepEqual(s.pattern, ["visible"], `${name}: move ${k}'s pattern outlined`);
    assert.deepEqual(s.item, [String(k)], `${name}: move ${k} marked in the list`);
    assert.ok(s.end.every((e) => !e), `${name}: no contradiction before the last move`);
  }
  await page.keyboard.press(",");
  s = await movesState(page, pick);
  assert.equal(s.counter, `move 2 of ${total}`, `${name}: "," goes back`);
  assert.deepEqual(s.drawn, upTo(2));
  const after = await movesState(page, other);
  assert.equal(after.selected, false, `${name}: one line selected at a time`);
  delete after.selected;
  delete before.selected;
  assert.deepEqual(after, before, `${name}: the other line does not move`);
  assert.equal((await viewerState(page)).counter, viewerBefore, `${name}: the chain's viewer does not move`);
  // The buttons, to the last move: every move drawn, the contradiction shown, then no further.
  const next = await lines[pick].$("button.move-next");
  for (let k = 3; k <= total + 1; k++) {
    await next.click();
  }
  s = await movesState(page, pick);
  assert.equal(s.counter, `move ${total} of ${total}`, `${name}: the last move`);
  assert.deepEqual(s.drawn, upTo(total), `${name}: every move drawn`);
  assert.ok(s.end.every((e) => e), `${name}: the contradiction shown at the last move`);
  assert.deepEqual(s.item, [String(total), String(total + 1)], `${name}: the last move and the contradiction marked`);
  assert.equal(await lines[pick].$eval("button.move-next", (b) => b.disabled), true);
  await (await lines[pick].$("button.move-prev")).click();
  assert.equal((await movesState(page, pick)).counter, `move ${total - 1} of ${total}`, `${name}: back one`);
  // ← and → step the chain's viewer, not the moves.
  await page.keyboard.press("ArrowRight");
  assert.equal((await movesState(page, pick)).counter, `move ${total - 1} of ${total}`);
  assert.notEqual((await viewerState(page)).counter, viewerBefore, `${name}: → steps the chain's viewer`);
  await page.keyboard.press("ArrowLeft");
  return total;
}

/// The tree of the report, opened as its own page: the SOL boxes of the proof's path are drawn
/// above every folded box (each folded box is at least as low as the highest SOL box), outside
/// the panels that open on click.
async function checkProofFirst(tree, name) {
  const r = await tree.evaluate(() => {
    const hidden = (e) => e.closest("[display='none']") !== null;
    const top = (e) => e.querySelector("rect").getBoundingClientRect().top;
    const sol = [...document.querySelectorAll("g.sol")].filter((g) => !hidden(g)).map(top);
    const folded = [...document.querySelectorAll("g.fold")].filter((g) => !hidden(g)).map(top);
    return { sol, folded };
  });
  assert.ok(r.sol.length > 0, `${name}: the tree shows the proof's SOL`);
  const highest = Math.min(...r.sol);
  for (const y of r.folded) {
    assert.ok(y >= highest, `${name}: a folded box at ${y} is above the proof's SOL at ${highest}`);
  }
}

// The decision tree (`tree.svg`, embedded in the report with <object>): opened as its own
// page, a click on a folded box opens its panel and a second click closes it, the zoom buttons
// scale the picture and finding a cell highlights its nodes. The report embeds that file.
async function checkTree(page, name) {
  const embedded = await page.$$eval('object[data="tree.svg"]', (os) => os.length);
  assert.equal(embedded, 1, `${name}: the report embeds tree.svg`);
  // Inside the report: the <object>'s document runs the picture's script too.
  const frame = page.frames().find((f) => f.url().endsWith("/tree.svg"));
  assert.ok(frame, `${name}: the tree's frame is loaded`);
  const inner = await frame.$("[data-opens]");
  assert.ok(inner, `${name}: the embedded tree has no folded box`);
  const innerId = await inner.evaluate((g) => g.getAttribute("data-opens"));
  await page.$eval('object[data="tree.svg"]', (o) => o.scrollIntoView());
  await inner.click();
  const opened = await frame.$eval("#" + innerId, (p) => !p.hasAttribute("display"));
  assert.equal(opened, true, `${name}: a click in the report opens panel ${innerId}`);
  await inner.click();
  const tree = await page.browser().newPage();
  const errors = [];
  tree.on("pageerror", (e) => errors.push(String(e)));
  tree.on("dialog", (d) => d.accept("G7"));
  await tree.goto(page.url().replace(/index\.html(#.*)?$/, "tree.svg"), { waitUntil: "load" });
  await checkProofFirst(tree, name);
  const folded = await tree.$$("[data-opens]");
  assert.ok(folded.length > 0, `${name}: the tree has no folded box`);
  const panelOf = (el) => el.evaluate((g) => g.getAttribute("data-opens"));
  const shown = (id) => tree.$eval("#" + id, (p) => !p.hasAttribute("display"));
  const id = await panelOf(folded[0]);
  assert.equal(await shown(id), false, `${name}: panel ${id} starts closed`);
  await folded[0].click();
  assert.equal(await shown(id), true, `${name}: a click opens panel ${id}`);
  const boxes = await tree.$eval("#" + id, (p) => p.querySelectorAll("rect").length);
  assert.ok(boxes > 1, `${name}: panel ${id} shows its nodes`);
  await folded[0].click();
  assert.equal(await shown(id), false, `${name}: a second click closes panel ${id}`);
  await tree.click('[data-act="in"]');
  const transform = await tree.$eval("#view", (v) => v.getAttribute("transform") || "");
  assert.match(transform, /scale\(1\.25\)/, `${name}: zoom in`);
  await tree.click('[data-act="find"]');
  const status = await tree.$eval("#status", (t) => t.textContent);
  assert.match(status, /^G7: \d+ shown, \d+ folded/, `${name}: find G7 says ${status}`);
  const hits = await tree.$$eval(".hit", (h) => h.length);
  assert.ok(hits > 0, `${name}: find G7 highlights nothing`);
  assert.deepEqual(errors, [], `${name}: tree script errors`);
  await tree.close();
}

async function checkReport(browser, file, name, shots) {
  const page = await browser.newPage();
  const external = [];
  await page.setRequestInterception(true);
  page.on("request", (req) => {
    const url = req.url();
    if (url.startsWith("file:") || url.startsWith("data:") || url.startsWith("about:")) {
      req.continue();
    } else {
      external.push(url);
      req.abort();
    }
  });
  const errors = [];
  page.on("pageerror", (e) => errors.push(String(e)));
  await page.setViewport({ width: 1200, height: 900 });
  await page.goto("file://" + file, { waitUntil: "load" });

  // The title is a short name, not the 81-character puzzle.
  const h1 = await page.$eval("h1", (h) => h.textContent);
  assert.ok(h1.length < 60 && !/^[0-9.]{81}$/.test(h1), `${name}: title ${h1}`);

  // Table of contents: every link lands on an element of the page.
  const toc = await page.$$eval("nav.toc a", (as) =>
    as.map((a) => [a.getAttribute("href"), !!document.getElementById(a.getAttribute("href").slice(1))]));
  assert.ok(toc.length >= 5, `${name}: toc ${toc}`);
  for (const [href, ok] of toc) {
    assert.ok(ok, `${name}: toc link ${href} has no target`);
  }

  // The viewer: one step at a time, ← and → and the buttons move it (its pictures load lazily,
  // once in view).
  await page.$eval("#viewer", (v) => v.scrollIntoView());
  let s = await viewerState(page);
  const total = s.visible;
  assert.ok(total >= 3, `${name}: only ${total} steps`);
  assert.equal(s.shown, 1, `${name}: one step shown at a time`);
  assert.equal(s.counter, `step 1 of ${total}`);
  await pictureLoaded(page);
  let shot = await page.$eval("#viewer", (v) => v.getBoundingClientRect().height);
  assert.ok(shot > 200, `${name}: viewer ${shot} px high`);
  const presses = Math.min(4, total - 1);
  for (let i = 1; i <= presses; i++) {
    const before = s;
    const pixels = await (await page.$("#viewer li.step.current")).screenshot();
    await page.keyboard.press("ArrowRight");
    s = await viewerState(page);
    assert.equal(s.counter, `step ${i + 1} of ${total}`, `${name}: → ${i}`);
    assert.equal(s.id, `step-${i + 1}`);
    assert.equal(s.hash, `#step-${i + 1}`);
    assert.notEqual(s.line, before.line, `${name}: the line changes`);
    assert.equal(s.shown, 1);
    if (s.src !== null) {
      assert.notEqual(s.src, before.src, `${name}: the grid changes`);
      await pictureLoaded(page);
      const after = await (await page.$("#viewer li.step.current")).screenshot();
      assert.ok(Buffer.compare(Buffer.from(pixels), Buffer.from(after)) !== 0, `${name}: same pixels`);
    }
  }
  const last = s;
  await page.keyboard.press("ArrowLeft");
  s = await viewerState(page);
  assert.equal(s.counter, `step ${presses} of ${total}`, `${name}: ← goes back`);
  await page.keyboard.press("ArrowRight");
  assert.equal((await viewerState(page)).line, last.line);
  await page.click("#viewer button.prev");
  assert.equal((await viewerState(page)).counter, `step ${presses} of ${total}`);
  await page.click("#viewer button.next");
  assert.equal((await viewerState(page)).counter, `step ${presses + 1} of ${total}`);
  // Past the ends, nothing moves.
  for (let i = 0; i < total + 2; i++) {
    await page.keyboard.press("ArrowLeft");
  }
  assert.equal((await viewerState(page)).counter, `step 1 of ${total}`);

  // A chain line's number jumps to its step, and the step's link back to the line.
  const target = Math.min(3, total);
  const lineText = await page.$eval(`#line-${target} .text`, (t) => t.textContent);
  await page.click(`#line-${target} a.n`);
  s = await viewerState(page);
  assert.equal(s.counter, `step ${target} of ${total}`, `${name}: line link`);
  assert.equal(s.line, lineText, `${name}: the step shows the line`);
  const inView = (sel) =>
    page.$eval(sel, (e) => {
      const r = e.getBoundingClientRect();
      return r.bottom > 0 && r.top < window.innerHeight;
    });
  assert.ok(await inView("#viewer li.step.current"), `${name}: the step is scrolled to`);
  await page.click("#viewer li.step.current a.back");
  await page.waitForFunction((t) => location.hash === `#line-${t}`, {}, target);
  assert.ok(await inView(`#line-${target}`), `${name}: back at the line`);

  const moves = await checkMoves(page, name);
  const grids = await checkGridLabels(page, path.dirname(file), name);
  console.log(`ok ${name}: stepped ${moves} moves of a line; ${grids} grid pictures labelled`);

  // Pencil marks of the propagated grid: at least 11 px as displayed.
  const marks = await pencilMarkSizes(page);
  assert.ok(marks.length > 0, `${name}: no pencil marks`);
  assert.ok(Math.min(...marks) >= 11, `${name}: pencil marks ${Math.min(...marks).toFixed(1)} px`);

  await checkTree(page, name);

  // Nothing wider than the viewport outside a scroll container, wide and narrow, everything open.
  await page.evaluate(() => document.querySelectorAll("details").forEach((d) => (d.open = true)));
  for (const width of [1200, 420]) {
    await page.setViewport({ width, height: 900 });
    const o = await overflowing(page);
    assert.deepEqual(o.bad, [], `${name} at ${width} px: overflowing`);
    assert.ok(o.scroll <= o.width, `${name} at ${width} px: page scrolls sideways (${o.scroll})`);
  }
  await page.setViewport({ width: 1200, height: 900 });
  // The whole page, up to a height that a PNG decoder still reads (a deep puzzle's page with its
  // derivations runs past 60,000 px).
  const height = Math.min(30000, await page.evaluate(() => document.documentElement.scrollHeight));
  const png = await page.screenshot({ clip: { x: 0, y: 0, width: 1200, height }, captureBeyondViewport: true });
  fs.writeFileSync(path.join(shots, `${name}.png`), png);
  const v = await variance(browser, png);
  assert.ok(v > 100, `${name}: blank screenshot (variance ${v.toFixed(1)})`);

  assert.deepEqual(external, [], `${name}: requests outside the folder`);
  assert.deepEqual(errors, [], `${name}: script errors`);
  await page.close();

  // Without JavaScript every step is listed and the controls stay hidden.
  const plain = await browser.newPage();
  await plain.setJavaScriptEnabled(false);
  await plain.goto("file://" + file, { waitUntil: "load" });
  const nojs = await plain.evaluate(() => ({
    shown: [...document.querySelectorAll("#viewer li.step")].filter((s) => s.offsetParent !== null).length,
    controls: document.querySelector("#viewer .controls").offsetParent !== null,
    moveControls: [...document.querySelectorAll(".move-controls")].some((c) => c.offsetParent !== null),
    // Every move drawn and listed, the contradiction shown.
    hiddenMoves: [...document.querySelectorAll("#contradiction-proof svg g.move, #contradiction-proof svg g.end")]
      .filter((g) => getComputedStyle(g).display === "none").length,
    listed: [...document.querySelectorAll("#contradiction-proof .derivation[data-moves]")].every(
      (b) => b.querySelectorAll("ol.moves li.move").length >= parseInt(b.getAttribute("data-moves"), 10)),
  }));
  assert.deepEqual(
    nojs,
    { shown: total, controls: false, moveControls: false, hiddenMoves: 0, listed: true },
    `${name} without JavaScript`,
  );
  await plain.close();
  return total;
}

/// The index: each row links to its report, each report back to its row and to its neighbours
/// in the index's order.
async function checkIndex(browser, file) {
  const page = await browser.newPage();
  await page.goto("file://" + file, { waitUntil: "load" });
  const rows = await page.$$eval("tr[id] a", (as) => as.map((a) => a.href));
  assert.ok(rows.length >= 3, `index rows ${rows}`);
  for (let i = 0; i < rows.length; i++) {
    await page.goto(rows[i], { waitUntil: "load" });
    const nav = await page.evaluate(() => ({
      up: document.querySelector("nav.collection a[rel=up]").href,
      prev: document.querySelector("nav.collection a[rel=prev]")?.href ?? null,
      next: document.querySelector("nav.collection a[rel=next]")?.href ?? null,
    }));
    assert.equal(nav.prev, i > 0 ? rows[i - 1] : null, `report ${i}: previous`);
    assert.equal(nav.next, i + 1 < rows.length ? rows[i + 1] : null, `report ${i}: next`);
    await page.goto(nav.up, { waitUntil: "load" });
    const row = await page.evaluate(() => document.getElementById(location.hash.slice(1))?.querySelector("a")?.href);
    assert.equal(row, rows[i], `report ${i}: back to its row`);
  }
  await page.close();
}

async function main() {
  assert.ok(fs.existsSync(hdp), `${hdp} is missing: cargo build --release`);
  // Replaced at each run (the screenshots stay for a look), never added to the system's /tmp.
  const out = path.join(repo, "target", "tmp", "browser");
  fs.rmSync(out, { recursive: true, force: true });
  fs.mkdirSync(out, { recursive: true });
  const pages = {
    inkala: report([], path.join(out, "inkala")),
    deep: report([DEEP], path.join(out, "deep")),
  };
  const list = path.join(out, "list.txt");
  const lines = fs.readFileSync(path.join(repo, "tests/data/top95.txt"), "utf8").split("\n");
  // The index's order (by level: the two top95 puzzles are easy, Inkala's hard, the broken line
  // invalid) is not the input's.
  fs.writeFileSync(list, [lines[0], "1".repeat(81) + " broken", INKALA + " Inkala", lines[1]].join("\n") + "\n");
  const index = report(["--index", list, "--max-steps", "3"], path.join(out, "index"));
  const browser = await puppeteer.launch({
    executablePath: chromiumPath(),
    headless: true,
    args: ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
  });
  try {
    for (const [name, file] of Object.entries(pages)) {
      const steps = await checkReport(browser, file, name, out);
      console.log(`ok ${name}: ${steps} steps`);
    }
    await checkIndex(browser, index);
    console.log("ok index: links between the index and its reports");
  } finally {
    await browser.close();
  }
  console.log(`screenshots in ${out}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
